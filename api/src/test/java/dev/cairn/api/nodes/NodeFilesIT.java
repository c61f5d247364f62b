package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;

/** A node's files over REST: listed, downloaded whole or by range with the object key as ETag, zipped. */
class NodeFilesIT extends ApiTest {

    static final byte[] BIG = new byte[10 << 20];
    static String folder;
    static String single;

    @BeforeEach
    void fixture() {
        if (folder != null) {
            return;
        }
        new Random(7).nextBytes(BIG);
        Api.Response made = new Multipart()
                .file("file", "a.txt", "alpha".getBytes(StandardCharsets.UTF_8))
                .file("file", "sub/b.txt", "beta".getBytes(StandardCharsets.UTF_8))
                .file("file", "sub/deep/c.bin", BIG)
                .post(admin(), "/api/v1/nodes/files?label=tree");
        assertEquals(201, made.status(), made.toString());
        folder = made.json().get("uuid").asString();
        Api.Response one = new Multipart()
                .file("upload", "notes.txt", "0123456789".getBytes(StandardCharsets.UTF_8))
                .post(admin(), "/api/v1/nodes/files");
        assertEquals(201, one.status(), one.toString());
        single = one.json().get("uuid").asString();
    }

    Api reader() {
        return api(token(Role.READ));
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void aFolderListsItsEntriesWithSizesAndKeys() throws Exception {
        JsonNode top = reader().get("/api/v1/nodes/" + folder + "/files").json();
        assertEquals("", top.get("path").asString());
        JsonNode entries = top.get("entries");
        assertEquals(2, entries.size(), top.toString());
        assertEquals("a.txt", entries.get(0).get("name").asString());
        assertEquals("file", entries.get(0).get("type").asString());
        assertEquals(5, entries.get(0).get("size").asInt());
        assertEquals(
                sha256("alpha".getBytes(StandardCharsets.UTF_8)),
                entries.get(0).get("key").asString());
        assertEquals("directory", entries.get(1).get("type").asString());
        assertEquals("sub", entries.get(1).get("path").asString());

        JsonNode sub =
                reader().get("/api/v1/nodes/" + folder + "/files?path=sub").json();
        assertEquals(
                List.of("sub/b.txt", "sub/deep"),
                sub.get("entries")
                        .valueStream()
                        .map(e -> e.get("path").asString())
                        .toList());
        JsonNode every = reader().get("/api/v1/nodes/" + folder + "/files?recursive=true")
                .json();
        assertEquals(
                List.of("a.txt", "sub/b.txt", "sub/deep/c.bin"),
                every.get("entries")
                        .valueStream()
                        .map(e -> e.get("path").asString())
                        .toList());
        assertEquals(BIG.length, every.get("entries").get(2).get("size").asLong());

        Api.Response missing = reader().get("/api/v1/nodes/" + folder + "/files?path=nope");
        assertEquals(404, missing.status(), missing.toString());
        Api.Response file = reader().get("/api/v1/nodes/" + folder + "/files?path=a.txt");
        assertEquals(400, file.status(), file.toString());
        Api.Response escape = reader().get("/api/v1/nodes/" + folder + "/files?path=../x");
        assertEquals(400, escape.status(), escape.toString());
    }

    @Test
    void aFileDownloadsWholeWithItsKeyAsETag() throws Exception {
        Api.Response r = reader().get("/api/v1/nodes/" + folder + "/files/sub/b.txt");
        assertEquals(200, r.status(), r.toString());
        assertEquals("beta", r.body());
        String key = sha256("beta".getBytes(StandardCharsets.UTF_8));
        assertEquals("\"" + key + "\"", r.header("ETag"));
        assertEquals("bytes", r.header("Accept-Ranges"));
        assertEquals("4", r.header("Content-Length"));
        assertTrue(r.header("Content-Disposition").contains("b.txt"), r.header("Content-Disposition"));
        assertEquals("text/plain", r.header("Content-Type"));

        Api api = reader();
        HttpResponse<InputStream> big = api.stream(
                api.request("/api/v1/nodes/" + folder + "/files/sub/deep/c.bin").GET());
        try (InputStream in = big.body()) {
            assertEquals(200, big.statusCode());
            assertArrayEquals(BIG, in.readAllBytes());
        }
    }

    Api.Response withHeader(String path, String name, String value) {
        Api api = reader();
        return api.send(api.request(path).header(name, value).GET());
    }

    @Test
    void rangesConditionsAndTheirRefusals() throws Exception {
        String path = "/api/v1/nodes/" + single + "/files/notes.txt";
        Api.Response part = withHeader(path, "Range", "bytes=2-5");
        assertEquals(206, part.status(), part.toString());
        assertEquals("2345", part.body());
        assertEquals("bytes 2-5/10", part.header("Content-Range"));
        Api.Response tail = withHeader(path, "Range", "bytes=-3");
        assertEquals("789", tail.body());
        assertEquals("bytes 7-9/10", tail.header("Content-Range"));
        Api.Response open = withHeader(path, "Range", "bytes=8-");
        assertEquals("89", open.body());
        Api.Response beyond = withHeader(path, "Range", "bytes=10-");
        assertEquals(416, beyond.status(), beyond.toString());
        assertEquals("bytes */10", beyond.header("Content-Range"));
        Api.Response several = withHeader(path, "Range", "bytes=0-1,4-5");
        assertEquals(200, several.status());
        assertEquals("0123456789", several.body());

        String etag = reader().get(path).header("ETag");
        Api.Response same = withHeader(path, "If-None-Match", etag);
        assertEquals(304, same.status(), same.toString());
        assertEquals("", same.body());
        Api.Response other = withHeader(path, "If-None-Match", "\"abc\"");
        assertEquals(200, other.status());

        Api.Response bigRange = withHeader(
                "/api/v1/nodes/" + folder + "/files/sub/deep/c.bin",
                "Range",
                "bytes=" + (5 << 20) + "-" + ((5 << 20) + 99));
        assertEquals(206, bigRange.status());
        assertEquals(100, Integer.parseInt(bigRange.header("Content-Length")));

        Api.Response dir = reader().get("/api/v1/nodes/" + folder + "/files/sub");
        assertEquals(400, dir.status(), dir.toString());
        assertTrue(dir.json().get("detail").asString().contains("archive?path=sub"), dir.toString());
        Api.Response missing = reader().get("/api/v1/nodes/" + folder + "/files/nope.txt");
        assertEquals(404, missing.status(), missing.toString());
    }

    static Map<String, byte[]> unzip(InputStream in) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                entries.put(e.getName(), zip.readAllBytes());
            }
        }
        return entries;
    }

    @Test
    void aFolderStreamsAsAZip() throws Exception {
        Api api = reader();
        HttpResponse<InputStream> all =
                api.stream(api.request("/api/v1/nodes/" + folder + "/archive").GET());
        assertEquals(200, all.statusCode());
        assertEquals("application/zip", all.headers().firstValue("Content-Type").orElseThrow());
        Map<String, byte[]> entries = unzip(all.body());
        assertEquals(List.of("a.txt", "sub/b.txt", "sub/deep/c.bin"), List.copyOf(entries.keySet()));
        assertEquals("alpha", new String(entries.get("a.txt"), StandardCharsets.UTF_8));
        assertArrayEquals(BIG, entries.get("sub/deep/c.bin"));

        HttpResponse<InputStream> sub = api.stream(
                api.request("/api/v1/nodes/" + folder + "/archive?path=sub").GET());
        Map<String, byte[]> subEntries = unzip(sub.body());
        assertEquals(List.of("b.txt", "deep/c.bin"), List.copyOf(subEntries.keySet()));

        Api.Response missing = reader().get("/api/v1/nodes/" + folder + "/archive?path=nope");
        assertEquals(404, missing.status(), missing.toString());
        HttpResponse<InputStream> one =
                api.stream(api.request("/api/v1/nodes/" + single + "/archive").GET());
        assertEquals(List.of("notes.txt"), List.copyOf(unzip(one.body()).keySet()));
    }
}
