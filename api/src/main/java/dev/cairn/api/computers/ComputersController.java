package dev.cairn.api.computers;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Page;

/** The computers calculation jobs run on: set up, listed, shown, deleted, enabled per user and tested. */
@RestController
@RequestMapping("/api/v1/computers")
@Tag(
        name = "computers",
        description = "The computers calculation jobs run on (AiiDA's computers): reading needs the role read,"
                + " the rest admin")
class ComputersController {

    private static final String REF = "the computer's label or uuid";

    private final ComputerService computers;

    ComputersController(ComputerService computers) {
        this.computers = computers;
    }

    @PostMapping
    @Operation(
            operationId = "createComputer",
            summary = "Set up a computer",
            description = "Stores a computer after the engine has checked it: a known transport type (core.local,"
                    + " core.ssh) and scheduler type (core.direct, core.slurm, core.pbspro, core.torque), an"
                    + " absolute workdir, only known settings of the right kinds, and transport parameters the"
                    + " transport takes. Anything wrong is a 400 naming it, and nothing is stored.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewComputer.class),
                                            examples = {
                                                @ExampleObject(
                                                        name = "cluster",
                                                        summary = "a SLURM cluster over SSH",
                                                        value = """
                                                {"label": "cluster", "hostname": "login.cluster.example.org",
                                                 "transportType": "core.ssh", "schedulerType": "core.slurm",
                                                 "settings": {"workdir": "/scratch/alice/cairn",
                                                  "transport_params": {"username": "alice",
                                                   "key_filename": "~/.ssh/id_ed25519"},
                                                  "max_connections": 4, "mpirun_command": "srun"}}"""),
                                                @ExampleObject(
                                                        name = "local",
                                                        summary = "this machine, jobs in the background",
                                                        value = """
                                                {"label": "localhost", "hostname": "localhost",
                                                 "transportType": "core.local", "schedulerType": "core.direct",
                                                 "settings": {"workdir": "/tmp/cairn-work"}}""")
                                            })),
            responses = {
                @ApiResponse(responseCode = "201", description = "the computer, stored"),
                @ApiResponse(responseCode = "409", description = "a computer has the label already")
            })
    ResponseEntity<ComputerView> create(@RequestBody NewComputer body) {
        ComputerView computer = computers.create(body, CurrentUser.id());
        return ResponseEntity.created(location(computer)).body(computer);
    }

    @GetMapping
    @Operation(
            operationId = "listComputers",
            summary = "List the computers",
            description = "Every computer, by label, in one page (an installation has few).")
    Page<ComputerView> list() {
        return new Page<>(computers.list(CurrentUser.id()), null, null);
    }

    @GetMapping("/{computer}")
    @Operation(
            operationId = "showComputer",
            summary = "Show a computer",
            description = "The computer with its settings, whether it is enabled for the caller and for whom it was"
                    + " enabled or disabled, and how many nodes name it.")
    ComputerView show(@Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref) {
        return computers.show(ref, CurrentUser.id());
    }

    @DeleteMapping("/{computer}")
    @Operation(
            operationId = "deleteComputer",
            summary = "Delete a computer",
            description = "Deletes a computer and its per-user settings, as long as no node names it: jobs that"
                    + " ran on it and codes installed on it are provenance.",
            responses = {
                @ApiResponse(responseCode = "204", description = "deleted"),
                @ApiResponse(responseCode = "409", description = "nodes name the computer")
            })
    ResponseEntity<Void> delete(
            @Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref) {
        computers.delete(ref);
        return ResponseEntity.noContent().build();
    }

    @PutMapping("/{computer}/transport-params")
    @Operation(
            operationId = "configureComputerTransport",
            summary = "Configure a computer's transport",
            description = "As verdi computer configure: replaces the computer's transport parameters (its setting"
                    + " transport_params). For core.ssh: username, port, key_filename, timeout, known_hosts,"
                    + " host_key_policy; for core.local: environment. The engine checks them as at set-up; anything"
                    + " wrong is a 400 naming it, and nothing changes.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema =
                                                    @Schema(
                                                            type = "object",
                                                            additionalProperties =
                                                                    Schema.AdditionalPropertiesValue.TRUE),
                                            examples =
                                                    @ExampleObject(
                                                            value = "{\"username\": \"alice\", \"port\": 22,"
                                                                    + " \"key_filename\": \"~/.ssh/id_ed25519\"}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "the computer with its new transport parameters")
            })
    ComputerView configure(
            @Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref,
            @RequestBody Map<String, Object> params) {
        return computers.configure(ref, params, CurrentUser.id());
    }

    @PostMapping("/{computer}/enable")
    @Operation(
            operationId = "enableComputer",
            summary = "Enable a computer for a user",
            description = "As verdi computer enable: the computer is enabled for the user named in the body, or"
                    + " for the caller when there is no body.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = false,
                            content =
                                    @Content(
                                            schema = @Schema(implementation = Access.ForUser.class),
                                            examples = @ExampleObject(value = "{\"user\": \"alice@example.org\"}"))))
    Access enable(
            @Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref,
            @RequestBody(required = false) Access.ForUser body) {
        return setEnabled(ref, body, true);
    }

    @PostMapping("/{computer}/disable")
    @Operation(
            operationId = "disableComputer",
            summary = "Disable a computer for a user",
            description = "As verdi computer disable: the computer is disabled for the user named in the body, or"
                    + " for the caller when there is no body. It is recorded per user (authinfo); other users"
                    + " keep it.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = false,
                            content =
                                    @Content(
                                            schema = @Schema(implementation = Access.ForUser.class),
                                            examples = @ExampleObject(value = "{\"user\": \"alice@example.org\"}"))))
    Access disable(
            @Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref,
            @RequestBody(required = false) Access.ForUser body) {
        return setEnabled(ref, body, false);
    }

    @PostMapping("/{computer}/test")
    @Operation(
            operationId = "testComputer",
            summary = "Test a computer",
            description = "Runs the checks of verdi computer test through the engine's transports: the settings,"
                    + " opening the transport, whoami, that commands print only their own output, that the work"
                    + " directory exists or can be made and is writable, and the scheduler's job listing. Each"
                    + " check has its result, a message and its time; a computer that is down answers 200 with"
                    + " the connection check failed. Over SSH this may take as long as the connection timeout.")
    TestReportView test(@Parameter(description = REF, example = "cluster") @PathVariable("computer") String ref) {
        return computers.test(ref);
    }

    private Access setEnabled(String ref, Access.ForUser body, boolean enabled) {
        return computers.setEnabled(ref, body == null ? null : body.user(), CurrentUser.id(), enabled);
    }

    private static URI location(ComputerView computer) {
        return URI.create("/api/v1/computers/" + UriUtils.encodePathSegment(computer.label(), StandardCharsets.UTF_8));
    }
}
