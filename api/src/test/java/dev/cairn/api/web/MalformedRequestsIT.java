package dev.cairn.api.web;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;

import org.junit.jupiter.api.Test;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * Requests schemathesis found the server answering with a 500, a 503 or a success: each is now a
 * problem naming what was wrong (or a 405 with {@code Allow}), and none stores anything.
 */
class MalformedRequestsIT extends ApiTest {

    @Test
    void aMultipartBodyWithoutBoundaryAndANamelessQueryParameterAre400s() {
        Api.Response multipart = admin().send(admin().request("/api/v1/computers")
                .header("Content-Type", "multipart/form-data")
                .GET());
        Api.Response nameless = admin().get("/api/v1/statistics?=x");
        assertAll(
                () -> assertProblem(400, "not valid multipart/form-data", multipart),
                () -> assertProblem(400, "query string is malformed", nameless));
    }

    @Test
    void aPartWhoseHeadersNeverEndIsA400AndStoresNothing() throws Exception {
        long before = rows();
        String body = "--b\r\n" + "[true, {\"x\": 1}]".repeat(200) + "--b--\r\n";
        Api.Response upload = admin().send(admin().request("/api/v1/nodes/files")
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertProblem(400, "not valid multipart/form-data", upload);
        assertTrue(upload.body().contains("header"), upload.toString());
        assertEquals(before, rows(), "nothing was stored");
    }

    @Test
    void moreMultipartPartsThanTheServerTakesIsA413SayingSoAndStoresNothing() throws Exception {
        long before = rows();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            body.append("--b\r\nContent-Disposition: form-data; name=\"prependText\"\r\n\r\nx")
                    .append(i)
                    .append("\r\n");
        }
        body.append("--b--\r\n");
        Api.Response upload = admin().send(admin().request("/api/v1/codes")
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        assertProblem(
                413, "the upload has more parts than the server takes (50, server.tomcat.max-part-count)", upload);
        assertEquals(before, rows(), "nothing was stored");
    }

    @Test
    void aQueryStringPastTheConnectorsLimitIsAProblemAndPausesNothing() throws Exception {
        long before = paused();
        String query = String.join("&", Collections.nCopies(1_100, "limit=1"));
        Api.Response tooLong = admin().post("/api/v1/processes/pause?" + query, "{\"label\": \"none-has-this\"}");
        Api.Response repeated = admin().post(
                        "/api/v1/processes/pause?" + String.join("&", Collections.nCopies(800, "limit=x")),
                        "{\"label\": \"none-has-this\"}");
        assertAll(
                () -> assertProblem(
                        400, "Request header is too large (the request line and headers may take 8192 bytes", tooLong),
                () -> assertEquals(
                        "urn:cairn:problem:invalid-input",
                        tooLong.json().get("type").asString()),
                () -> assertProblem(400, "parameter 'limit' is given 800 times (x, x, x, x, x, ...)", repeated),
                () -> assertEquals(before, paused(), "nothing was paused"));
    }

    @Test
    void aMethodNoOperationHasIsA405WithAllow() {
        Api.Response query = admin().send(
                        admin().request("/api/v1/processes/kill").method("QUERY", HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, query.status(), query.toString());
        assertEquals("POST", query.header("Allow"), query.toString());
        Api.Response options = admin().send(admin().request("/api/v1/processes/kill")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertTrue(!options.header("Allow").contains("GET"), options.toString());
    }

    @Test
    void anEmptyTypedParameterIsRefusedAndAnOffsetPostgresCannotHoldIsTakenInUtc() {
        assertProblem(400, "parameter 'until'", admin().get("/api/v1/processes?until="));
        assertProblem(400, "parameter 'days' is empty", admin().get("/api/v1/statistics?days="));
        // text with a default of its own (an enum, a pattern): empty is no value of it, not the default
        assertProblem(
                400,
                "parameter 'format' is empty: give a value, or leave it out for its default (cairn)",
                admin().get("/api/v1/archive?all=true&format="));
        assertProblem(400, "parameter 'order' is empty", admin().get("/api/v1/processes?order="));
        assertProblem(
                400,
                "parameter 'paused' is given 2 times (true, false); give it once, true or false",
                admin().get("/api/v1/processes?paused=true&paused=false"));
        Api.Response farOffset = admin().get("/api/v1/processes?since=0903-09-15T09%3A51%3A10-17%3A10");
        assertEquals(200, farOffset.status(), farOffset.toString());
    }

    @Test
    void coercedScalarsANullBodyAndANulCharacterStoreNothing() throws Exception {
        long before = rows();
        String computer = "{\"label\": false, \"hostname\": \"localhost\", \"transportType\": \"core.local\","
                + " \"schedulerType\": \"core.direct\", \"settings\": {\"workdir\": \"/tmp/x\"}}";
        Api.Response coerced = admin().post("/api/v1/computers", computer);
        Api.Response nullBody = admin().post("/api/v1/processes/kill", "null");
        Api.Response nul = admin().post("/api/v1/groups", "{\"label\": \"a\\u0000b\"}");
        Api.Response nullMember = admin().post("/api/v1/groups", "{\"label\": \"members\"}");
        Api.Response nullAdd = admin().post("/api/v1/groups/members/nodes", "{\"add\": [null]}");
        assertAll(
                () -> assertEquals(400, coerced.status(), coerced.toString()),
                () -> assertProblem(400, "JSON null", nullBody),
                () -> assertProblem(400, "the database refused a value", nul),
                () -> assertEquals(201, nullMember.status(), nullMember.toString()),
                () -> assertProblem(400, "null is not a node's uuid", nullAdd));
        assertEquals(before + 1, rows(), "only the group 'members' was stored");
    }

    private static void assertProblem(int status, String detail, Api.Response response) {
        assertEquals(status, response.status(), response.toString());
        assertTrue(response.header("Content-Type").startsWith("application/problem+json"), response.toString());
        assertTrue(response.json().get("detail").asString().contains(detail), response.toString());
    }

    private long paused() throws Exception {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM node WHERE attributes @> '{\"paused\": true}'")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** Nodes, computers and groups together: what a refused request must not add to. */
    private long rows() throws Exception {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM node) + (SELECT count(*) FROM computer)"
                        + " + (SELECT count(*) FROM node_group)")) {
            r.next();
            return r.getLong(1);
        }
    }
}
