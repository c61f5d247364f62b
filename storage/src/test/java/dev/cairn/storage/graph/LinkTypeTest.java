package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.graph.LinkType.Degree;
import dev.cairn.storage.graph.LinkType.NodeClass;

/** The link rules as data, as AiiDA's link mapping has them. */
class LinkTypeTest {

    private record Rule(NodeClass source, NodeClass target, Degree out, Degree in) {}

    private static Rule rule(LinkType type) {
        return new Rule(type.source(), type.target(), type.outDegree(), type.inDegree());
    }

    @Test
    void eachTypeJoinsItsKindsOfNodesWithItsDegrees() {
        assertEquals(
                List.of(
                        new Rule(NodeClass.CALCULATION, NodeClass.DATA, Degree.UNIQUE_PAIR, Degree.UNIQUE),
                        new Rule(NodeClass.WORKFLOW, NodeClass.DATA, Degree.UNIQUE_PAIR, Degree.UNIQUE_TRIPLE),
                        new Rule(NodeClass.DATA, NodeClass.CALCULATION, Degree.UNIQUE_TRIPLE, Degree.UNIQUE_PAIR),
                        new Rule(NodeClass.DATA, NodeClass.WORKFLOW, Degree.UNIQUE_TRIPLE, Degree.UNIQUE_PAIR),
                        new Rule(NodeClass.WORKFLOW, NodeClass.CALCULATION, Degree.UNIQUE_TRIPLE, Degree.UNIQUE),
                        new Rule(NodeClass.WORKFLOW, NodeClass.WORKFLOW, Degree.UNIQUE_TRIPLE, Degree.UNIQUE)),
                List.of(
                        rule(LinkType.CREATE),
                        rule(LinkType.RETURN),
                        rule(LinkType.INPUT_CALC),
                        rule(LinkType.INPUT_WORK),
                        rule(LinkType.CALL_CALC),
                        rule(LinkType.CALL_WORK)));
    }

    @Test
    void typesRoundTripThroughTheDatabaseValue() {
        for (LinkType type : LinkType.values()) {
            assertEquals(type, LinkType.fromDbValue(type.dbValue()));
        }
    }
}
