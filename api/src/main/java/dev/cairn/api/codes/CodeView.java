package dev.cairn.api.codes;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.PortableCode;

/**
 * A code as the API shows it.
 *
 * @param fullLabel {@code label@computer} for an installed code, the label for a portable one
 * @param files     a portable code's files (absent for an installed code)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(
        description = "An executable calculation jobs run: installed on a computer, or portable (uploaded files)",
        example = """
                {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "label": "pw", "fullLabel": "pw@cluster",
                 "kind": "installed", "computer": "cluster", "executable": "/opt/qe/7.2/bin/pw.x",
                 "description": "Quantum ESPRESSO 7.2", "defaultCalcJobPlugin": "quantumespresso.pw",
                 "prependText": "module load qe/7.2", "appendText": "", "withMpi": true,
                 "ctime": "2026-11-24T10:15:30.123+00:00"}""")
record CodeView(
        UUID uuid,
        String label,
        String fullLabel,

        @Schema(description = "installed or portable", example = "installed")
        String kind,

        @Schema(description = "the computer of an installed code (absent for a portable one)")
        String computer,

        @Schema(description = "an absolute path on the computer, or a path among the portable code's files")
        String executable,

        String description,

        @Schema(description = "the calculation job launched when none is named")
        String defaultCalcJobPlugin,

        String prependText,
        String appendText,

        @Schema(description = "whether to run under MPI; absent: as the job's options say")
        Boolean withMpi,

        List<String> files,
        OffsetDateTime ctime) {

    static final String INSTALLED = "installed";
    static final String PORTABLE = "portable";

    static CodeView of(Code code, String computerLabel) {
        boolean portable = code instanceof PortableCode;
        return new CodeView(
                code.uuid(),
                code.label(),
                portable ? code.label() : code.label() + "@" + computerLabel,
                portable ? PORTABLE : INSTALLED,
                portable ? null : computerLabel,
                code.executable(),
                code.description(),
                code.defaultCalcJobPlugin(),
                code.prependText(),
                code.appendText(),
                code.withMpi(),
                portable ? List.copyOf(code.files().keys().keySet()) : null,
                code.ctime());
    }
}
