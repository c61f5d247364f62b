package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchivePart;

/**
 * Rows of a small graph in Cairn's shapes, built in code for tests that need no aiida-core: a user, a
 * computer, a calculation function with two inputs and an output holding a file.
 */
final class SmallGraph {

    static final String EMAIL = "small@cairn.example";

    final Map<ArchivePart, List<JsonNode>> rows = new EnumMap<>(ArchivePart.class);
    final Map<String, byte[]> objects = new LinkedHashMap<>();
    final String calc = uuid(1);
    final String x = uuid(2);
    final String y = uuid(3);
    final String result = uuid(4);
    final String computer = uuid(9);

    SmallGraph() {
        byte[] content = "result: 3\n".getBytes(UTF_8);
        String key = sha256(content);
        objects.put(key, content);
        add(
                ArchivePart.USERS,
                "{\"email\":\"" + EMAIL + "\",\"first_name\":\"Small\",\"last_name\":\"Graph\","
                        + "\"institution\":\"\"}");
        add(
                ArchivePart.COMPUTERS,
                "{\"uuid\":\"" + computer + "\",\"label\":\"box\",\"hostname\":\"localhost\","
                        + "\"description\":\"\",\"transport_type\":\"core.local\",\"scheduler_type\":\"core.direct\","
                        + "\"metadata\":{\"workdir\":\"/tmp\"}}");
        add(ArchivePart.NODES, node(x, "data.core.int.Int.", "{\"value\":1}", "{}"));
        add(ArchivePart.NODES, node(y, "data.core.int.Int.", "{\"value\":2}", "{}"));
        add(
                ArchivePart.NODES,
                node(
                        calc,
                        "process.calculation.calcfunction.CalcFunctionNode.",
                        "{\"sealed\":true,\"process_state\":\"finished\",\"exit_status\":0,\"checkpoints\":\"{...}\"}",
                        "{}"));
        add(
                ArchivePart.NODES,
                node(
                        result,
                        "data.core.singlefile.SinglefileData.",
                        "{\"filename\":\"out.txt\"}",
                        "{\"o\":{\"out.txt\":{\"k\":\"" + key + "\"}}}"));
        add(ArchivePart.LINKS, link(x, calc, "input_calc", "x"));
        add(ArchivePart.LINKS, link(y, calc, "input_calc", "y"));
        add(ArchivePart.LINKS, link(calc, result, "create", "result"));
        add(
                ArchivePart.COMMENTS,
                "{\"uuid\":\"" + uuid(20) + "\",\"node\":\"" + calc + "\",\"user\":\"" + EMAIL
                        + "\",\"ctime\":\"2026-01-02T03:04:05.123456+01:00\",\"mtime\":\"2026-01-02T03:04:05Z\","
                        + "\"content\":\"well done\"}");
    }

    static String uuid(int n) {
        return new UUID(0x1234_5678_9abc_4defL, 0x8000_0000_0000_0000L | n).toString();
    }

    static String node(String uuid, String type, String attributes, String files) {
        return "{\"uuid\":\"" + uuid + "\",\"node_type\":\"" + type + "\",\"process_type\":null,\"label\":\"\","
                + "\"description\":\"\",\"ctime\":\"2026-01-02T03:04:05.000001Z\","
                + "\"mtime\":\"2026-01-02T03:04:06Z\",\"user\":\"" + EMAIL + "\",\"computer\":null,"
                + "\"attributes\":" + attributes + ",\"extras\":{\"note\":\"n\"},\"repository_metadata\":" + files
                + "}";
    }

    static String link(String input, String output, String type, String label) {
        return "{\"input\":\"" + input + "\",\"output\":\"" + output + "\",\"type\":\"" + type + "\",\"label\":\""
                + label + "\"}";
    }

    void add(ArchivePart part, String json) {
        rows.computeIfAbsent(part, p -> new ArrayList<>()).add(ArchiveContents.JSON.readTree(json));
    }

    /** The first row of {@code part}, to change in place. */
    ObjectNode first(ArchivePart part) {
        return (ObjectNode) rows.get(part).get(0);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
