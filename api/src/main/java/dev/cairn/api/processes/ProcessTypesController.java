package dev.cairn.api.processes;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/process-types}: what can be launched, with the schemas of its inputs and outputs. */
@RestController
@RequestMapping("/api/v1/process-types")
@Tag(name = "process types", description = "What can be launched: entry points, their schemas and exit codes")
class ProcessTypesController {

    private final LaunchService launches;

    ProcessTypesController(LaunchService launches) {
        this.launches = launches;
    }

    @GetMapping
    @Operation(
            operationId = "listProcessTypes",
            summary = "Every process type this server can launch",
            description = "The entry points of the plugins this server loaded, in name order, each with the JSON"
                    + " Schema of its inputs and metadata (what POST /api/v1/processes takes), of its outputs, and"
                    + " its exit codes. Needs the role read.")
    List<ProcessTypeView> list() {
        return launches.processTypes();
    }

    @GetMapping("/{entryPoint}")
    @Operation(
            operationId = "showProcessType",
            summary = "One process type",
            description = "Its input, metadata and output schemas and exit codes. An unknown entry point is a 404"
                    + " that lists the known ones. Needs the role read.")
    ProcessTypeView get(
            @Parameter(description = "the entry point", example = "arithmetic.add_multiply") @PathVariable("entryPoint")
                    String entryPoint) {
        return launches.processType(entryPoint);
    }
}
