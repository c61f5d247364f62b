package dev.cairn.storage.graph;

/** A run of a Java function that calls other processes and returns their data. */
public final class WorkFunctionNode extends WorkflowNode {

    public static final String TYPE = "process.workflow.workfunction.WorkFunctionNode.";

    /** A workfunction's process node, of the process type {@code processType} (its entry point). */
    public WorkFunctionNode(String processType) {
        super(TYPE, processType);
    }

    WorkFunctionNode(NodeRecord row) {
        super(row);
    }
}
