package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DotGraphTest {

    @Test
    void nodesAndLinksAreWrittenWithShapesAndEscapedLabels() {
        String dot = new DotGraph()
                .node("a", "data.core.int.Int.", "Int \"x\"\nPK 1", false)
                .node("c", "process.calculation.calcjob.CalcJobNode.", "CalcJobNode", true)
                .node("w", "process.workflow.workchain.WorkChainNode.", "WorkChainNode", false)
                .link("a", "c", "input_calc", "x")
                .link("w", "c", "call_calc", "CALL")
                .render();
        assertEquals("""
                digraph provenance {
                  node [fontname="Helvetica", fontsize=11];
                  edge [fontname="Helvetica"];
                  "a" [label="Int \\"x\\"\\nPK 1", shape=ellipse, color="#8cd499"];
                  "c" [label="CalcJobNode", shape=box, style=filled, color="#e38851", fillcolor="#ffffaa", penwidth=2];
                  "w" [label="WorkChainNode", shape=box, style="rounded", color="#e38851"];
                  "a" -> "c" [label="INPUT_CALC\\nx", fontsize=10];
                  "w" -> "c" [label="CALL_CALC\\nCALL", fontsize=10, style=dashed];
                }
                """, dot);
    }
}
