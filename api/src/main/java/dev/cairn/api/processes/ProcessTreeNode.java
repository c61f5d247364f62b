package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/** A process of a call tree and the processes it called. */
@Schema(description = "A process of a call tree, with the processes it called (oldest first)")
record ProcessTreeNode(
        @Schema(description = "the process") ProcessSummary process,
        @Schema(description = "the processes it called") List<ProcessTreeNode> called) {

    ProcessTreeNode(ProcessSummary process) {
        this(process, new ArrayList<>());
    }
}
