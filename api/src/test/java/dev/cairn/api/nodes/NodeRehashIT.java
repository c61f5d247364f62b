package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;

/** POST /api/v1/nodes/{ref}/rehash: the stored hash computed again from what is stored. */
class NodeRehashIT extends ApiTest {

    Api submitter() {
        return api(token(Role.SUBMIT));
    }

    void overwriteHash(Node node, String hash) throws Exception {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("UPDATE node SET hash = ? WHERE id = ?")) {
            s.setString(1, hash);
            s.setLong(2, node.id());
            assertEquals(1, s.executeUpdate());
        }
    }

    String storedHash(Node node) {
        return engine.graph().load(node.id()).hash();
    }

    @Test
    void aWrongHashOfADataNodeAndOfAProcessIsComputedAgainAndARightOneStays() throws Exception {
        IntData x = engine.graph().store(new IntData(5));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        calc.sealBeforeStore();
        engine.graph().storeAll(List.of(calc));
        String xHash = x.hash();
        String calcHash = calc.hash();

        Api.Response same = submitter().post("/api/v1/nodes/" + calc.uuid() + "/rehash", "");
        assertEquals(200, same.status(), same.toString());
        assertFalse(same.json().get("changed").asBoolean(), "the stored form is today's: " + same);
        assertEquals(calcHash, same.json().get("hash").asString());

        String wrong = "0".repeat(64);
        overwriteHash(x, wrong);
        overwriteHash(calc, wrong);
        Api.Response data = submitter().post("/api/v1/nodes/" + x.uuid() + "/rehash", "");
        assertEquals(200, data.status(), data.toString());
        JsonNode d = data.json();
        assertTrue(d.get("changed").asBoolean(), data.toString());
        assertEquals(wrong, d.get("previous").asString());
        assertEquals(xHash, d.get("hash").asString());
        assertEquals(xHash, storedHash(x));

        Api.Response process =
                submitter().post("/api/v1/nodes/" + calc.uuid().toString().substring(0, 20) + "/rehash", "");
        assertEquals(200, process.status(), process.toString());
        assertEquals(calcHash, process.json().get("hash").asString(), "from the input's hash by label");
        assertEquals(calcHash, storedHash(calc));
    }

    @Test
    void anUnknownNodeIsNotFoundAndAReaderMayNotRehash() {
        IntData x = engine.graph().store(new IntData(6));
        assertEquals(
                404,
                submitter()
                        .post("/api/v1/nodes/00000000-0000-7000-8000-000000000000/rehash", "")
                        .status());
        assertEquals(
                403,
                api(token(Role.READ))
                        .post("/api/v1/nodes/" + x.uuid() + "/rehash", "")
                        .status());
    }
}
