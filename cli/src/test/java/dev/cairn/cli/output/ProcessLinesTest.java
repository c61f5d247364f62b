package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;

class ProcessLinesTest {

    private static final Style PLAIN = new Style(false);

    private static String process(String uuid, String type, String state, Integer exit, boolean paused) {
        return "{\"uuid\": \"" + uuid + "-0000-0000-0000-000000000000\", \"entry_point\": \"" + type
                + "\", \"state\": \"" + state + "\", \"exit_status\": " + exit + ", \"paused\": " + paused
                + ", \"process_status\": \"Waiting for child processes\"}";
    }

    @Test
    void aStateCarriesItsExitStatusAndPause() {
        assertEquals(
                "Finished [400]",
                ProcessLines.state(JsonTrees.parse(process("a", "t", "finished", 400, false)), PLAIN));
        assertEquals(
                "Waiting (paused)",
                ProcessLines.state(JsonTrees.parse(process("a", "t", "waiting", null, true)), PLAIN));
    }

    @Test
    void theCallTreeIsDrawnAsVerdiDrawsItToTheDepthAsked() {
        JsonNode tree = JsonTrees.parse("{\"process\": " + process("aaaaaaaa", "series", "waiting", null, false)
                + ", \"called\": [{\"process\": " + process("bbbbbbbb", "child", "finished", 0, false)
                + ", \"called\": [{\"process\": " + process("cccccccc", "leaf", "finished", 0, false)
                + ", \"called\": []}]}, {\"process\": " + process("dddddddd", "child", "waiting", null, false)
                + ", \"called\": []}]}");
        List<String> all = new ArrayList<>();
        ProcessLines.tree(tree, -1, PLAIN, all);
        assertEquals(
                List.of(
                        "series<aaaaaaaa-0000-0000> Waiting Waiting for child processes",
                        "├── child<bbbbbbbb-0000-0000> Finished [0]",
                        "│   └── leaf<cccccccc-0000-0000> Finished [0]",
                        "└── child<dddddddd-0000-0000> Waiting Waiting for child processes"),
                all);
        List<String> top = new ArrayList<>();
        ProcessLines.tree(tree, 1, PLAIN, top);
        assertEquals(3, top.size());
    }
}
