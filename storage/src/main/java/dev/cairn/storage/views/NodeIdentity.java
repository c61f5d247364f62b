package dev.cairn.storage.views;

import java.util.UUID;

/**
 * What names a node and tells what it is: its id, uuid, node type and label.
 *
 * @param id       its primary key
 * @param uuid     its uuid
 * @param nodeType its node type, e.g. {@code data.core.int.Int.} or {@code process.workflow.workchain.WorkChainNode.}
 * @param label    its label
 */
public record NodeIdentity(long id, UUID uuid, String nodeType, String label) {

    /** Whether the node is a process (a calculation or a workflow), not data. */
    public boolean isProcess() {
        return nodeType.startsWith("process.");
    }
}
