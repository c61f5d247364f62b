package dev.cairn.storage.graph;

import java.util.Arrays;
import java.util.Locale;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The six kinds of link and the rules each carries: which kinds of node it joins, and how
 * many links of it a node may have on each side ({@link Degree}).
 * <p>
 * CREATE and INPUT_CALC make the data provenance, which must stay acyclic; INPUT_WORK,
 * RETURN and the CALL links record the logical provenance of workflows.
 */
public enum LinkType {
    /** A calculation produced this data. A data node has at most one creator. */
    CREATE(NodeClass.CALCULATION, NodeClass.DATA, Degree.UNIQUE_PAIR, Degree.UNIQUE),
    /** A workflow returns data that already exists. */
    RETURN(NodeClass.WORKFLOW, NodeClass.DATA, Degree.UNIQUE_PAIR, Degree.UNIQUE_TRIPLE),
    /** Data consumed by a calculation. */
    INPUT_CALC(NodeClass.DATA, NodeClass.CALCULATION, Degree.UNIQUE_TRIPLE, Degree.UNIQUE_PAIR),
    /** Data passed to a workflow. */
    INPUT_WORK(NodeClass.DATA, NodeClass.WORKFLOW, Degree.UNIQUE_TRIPLE, Degree.UNIQUE_PAIR),
    /** A workflow called a calculation. A process has at most one caller. */
    CALL_CALC(NodeClass.WORKFLOW, NodeClass.CALCULATION, Degree.UNIQUE_TRIPLE, Degree.UNIQUE),
    /** A workflow called another workflow. */
    CALL_WORK(NodeClass.WORKFLOW, NodeClass.WORKFLOW, Degree.UNIQUE_TRIPLE, Degree.UNIQUE);

    /** The three kinds of node that links distinguish. */
    public enum NodeClass {
        DATA("data."),
        CALCULATION("process.calculation."),
        WORKFLOW("process.workflow.");

        private final String typePrefix;

        NodeClass(String typePrefix) {
            this.typePrefix = typePrefix;
        }

        /** The prefix every {@code node_type} of this class starts with. */
        public String typePrefix() {
            return typePrefix;
        }

        /** The class of a {@code node_type} string. */
        public static NodeClass of(String nodeType) {
            for (NodeClass c : values()) {
                if (nodeType.startsWith(c.typePrefix)) {
                    return c;
                }
            }
            throw new InvalidInputException(
                    "node type " + nodeType
                            + " is neither data (data.…) nor a calculation or workflow (process.calculation.…, process.workflow.…)");
        }
    }

    /** How many links of a type a node may have on one side. */
    public enum Degree {
        /** At most one link of this type, whatever its label. */
        UNIQUE,
        /** At most one link of this type with a given label. */
        UNIQUE_PAIR,
        /** At most one link of this type with a given label to a given node. */
        UNIQUE_TRIPLE
    }

    private final NodeClass source;
    private final NodeClass target;
    private final Degree outDegree;
    private final Degree inDegree;

    LinkType(NodeClass source, NodeClass target, Degree outDegree, Degree inDegree) {
        this.source = source;
        this.target = target;
        this.outDegree = outDegree;
        this.inDegree = inDegree;
    }

    /** The class of node a link of this type may start at. */
    public NodeClass source() {
        return source;
    }

    /** The class of node a link of this type may end at. */
    public NodeClass target() {
        return target;
    }

    /** The rule on the source's side: how many links of this type may leave one node. */
    public Degree outDegree() {
        return outDegree;
    }

    /** The rule on the target's side: how many links of this type may reach one node. */
    public Degree inDegree() {
        return inDegree;
    }

    /** The value of the {@code link.type} column. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type a {@code link.type} value names. */
    public static LinkType fromDbValue(String value) {
        for (LinkType t : values()) {
            if (t.dbValue().equals(value)) {
                return t;
            }
        }
        throw new InvalidInputException("unknown link type '" + value + "'; link types are "
                + Arrays.stream(values()).map(LinkType::dbValue).toList());
    }
}
