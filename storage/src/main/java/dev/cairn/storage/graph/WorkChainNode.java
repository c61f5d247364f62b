package dev.cairn.storage.graph;

/** A run of a work chain: an outline of steps that submit processes and return their data. */
public final class WorkChainNode extends WorkflowNode {

    public static final String TYPE = "process.workflow.workchain.WorkChainNode.";

    /** A work chain's process node, of the process type {@code processType} (its entry point). */
    public WorkChainNode(String processType) {
        super(TYPE, processType);
    }

    WorkChainNode(NodeRecord row) {
        super(row);
    }
}
