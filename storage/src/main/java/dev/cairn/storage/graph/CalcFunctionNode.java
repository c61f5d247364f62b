package dev.cairn.storage.graph;

/** A run of a Java function that creates data. */
public final class CalcFunctionNode extends CalculationNode {

    public static final String TYPE = "process.calculation.calcfunction.CalcFunctionNode.";

    /** A calcfunction's process node, of the process type {@code processType} (its entry point). */
    public CalcFunctionNode(String processType) {
        super(TYPE, processType);
    }

    CalcFunctionNode(NodeRecord row) {
        super(row);
    }
}
