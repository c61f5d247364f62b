package dev.cairn.storage.graph;

/** A process that creates data: only calculations may have CREATE links. Calculations can be cached. */
public abstract sealed class CalculationNode extends ProcessNode permits CalcFunctionNode, CalcJobNode {

    protected CalculationNode(String nodeType, String processType) {
        super(nodeType, processType);
    }

    protected CalculationNode(NodeRecord row) {
        super(row);
    }
}
