package dev.cairn.cli.archive;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.luben.zstd.Zstd;

/**
 * A Cairn archive written as docs/archive-format.md lays it out, small parts split into small chunks so
 * that rows and objects span chunk boundaries. The end frames' checksums are not computed: what this
 * host reads of an archive does not check them (the server does).
 */
final class TestArchive {

    static final List<String> PARTS =
            List.of("users", "computers", "authinfos", "groups", "nodes", "links", "group_members", "comments", "logs");

    private final Map<String, List<String>> rows = new LinkedHashMap<>();
    private final List<byte[]> objects;
    private final int chunk;

    /** @param chunk the bytes of a part's stream per chunk frame */
    TestArchive(Map<String, List<String>> rows, List<byte[]> objects, int chunk) {
        for (String part : PARTS) {
            this.rows.put(part, rows.getOrDefault(part, List.of()));
        }
        this.objects = objects;
        this.chunk = chunk;
    }

    String headerJson() {
        StringBuilder counts = new StringBuilder();
        rows.forEach((part, lines) -> counts.append('"')
                .append(part)
                .append("\": ")
                .append(lines.size())
                .append(", "));
        counts.append("\"objects\": ").append(objects.size());
        return "{\"format\": \"cairn-archive\", \"version\": 1, \"producer\": \"cairn test\", \"created\":"
                + " \"2026-11-24T22:35:02.123456Z\", \"parameters\": {\"entities\": null, \"traversal_rules\":"
                + " {\"create_backward\": true, \"input_calc_forward\": false}, \"include_comments\": true,"
                + " \"include_logs\": false, \"include_authinfos\": false}, \"counts\": {" + counts + "}}";
    }

    byte[] bytes(boolean withTrailer) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(CairnFrames.MAGIC);
        out.writeInt(1);
        json(out, CairnFrames.HEADER, headerJson());
        for (Map.Entry<String, List<String>> part : rows.entrySet()) {
            StringBuilder stream = new StringBuilder();
            part.getValue().forEach(row -> stream.append(row).append('\n'));
            part(
                    out,
                    part.getKey(),
                    stream.toString().getBytes(StandardCharsets.UTF_8),
                    part.getValue().size());
        }
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        DataOutputStream r = new DataOutputStream(records);
        for (byte[] content : objects) {
            r.write(new byte[32]);
            r.writeLong(content.length);
            r.write(content);
        }
        part(out, "objects", records.toByteArray(), objects.size());
        if (withTrailer) {
            json(out, CairnFrames.TRAILER, "{\"counts\": {}, \"sha256\": {}}");
        }
        return bytes.toByteArray();
    }

    private void part(DataOutputStream out, String name, byte[] stream, int count) throws IOException {
        json(out, CairnFrames.PART, "{\"part\": \"" + name + "\"}");
        for (int at = 0; at < stream.length; at += chunk) {
            byte[] raw = Arrays.copyOfRange(stream, at, Math.min(stream.length, at + chunk));
            byte[] compressed = Zstd.compress(raw);
            frame(out, CairnFrames.CHUNK, compressed, raw.length);
        }
        json(
                out,
                CairnFrames.END,
                "{\"part\": \"" + name + "\", \"count\": " + count + ", \"bytes\": " + stream.length
                        + ", \"sha256\": \"\"}");
    }

    private static void json(DataOutputStream out, int type, String json) throws IOException {
        byte[] payload = json.getBytes(StandardCharsets.UTF_8);
        frame(out, type, payload, payload.length);
    }

    private static void frame(DataOutputStream out, int type, byte[] payload, int raw) throws IOException {
        out.writeByte(type);
        out.writeInt(payload.length);
        out.writeInt(raw);
        out.write(payload);
    }
}
