package dev.cairn.storage.graph;

/** A process that calls other processes and returns data they created; it creates none itself. */
public abstract sealed class WorkflowNode extends ProcessNode permits WorkFunctionNode, WorkChainNode {

    protected WorkflowNode(String nodeType, String processType) {
        super(nodeType, processType);
    }

    protected WorkflowNode(NodeRecord row) {
        super(row);
    }
}
