package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.WorkChainNode;

/**
 * A node's links each way, ancestors and descendants, on this graph:
 * <pre>
 *   d1 --input_calc x--> calc --create sum--> o1 --input_calc x--> calc2 --create sum--> o2
 *   d2 --input_calc y--> calc
 *   d1 --input_work a--> wf --call_calc c1--> calc;  wf --return result--> o1
 * </pre>
 */
class NodeGraphIT extends ApiTest {

    static IntData d1, d2, o1, o2;
    static CalcFunctionNode calc, calc2;
    static WorkChainNode wf;

    @BeforeEach
    void fixture() {
        if (d1 != null) {
            return;
        }
        var graph = engine.graph();
        d1 = graph.store(new IntData(1));
        d2 = graph.store(new IntData(2));
        wf = new WorkChainNode("examples.wf");
        wf.addIncoming(d1, LinkType.INPUT_WORK, "a");
        graph.store(wf);
        calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(d1, LinkType.INPUT_CALC, "x");
        calc.addIncoming(d2, LinkType.INPUT_CALC, "y");
        calc.addIncoming(wf, LinkType.CALL_CALC, "c1");
        graph.store(calc);
        o1 = new IntData(3);
        o1.addIncoming(calc, LinkType.CREATE, "sum");
        graph.store(o1);
        graph.addReturnLink(wf, o1, "result");
        calc2 = new CalcFunctionNode("arithmetic.add_function");
        calc2.addIncoming(o1, LinkType.INPUT_CALC, "x");
        graph.store(calc2);
        o2 = new IntData(4);
        o2.addIncoming(calc2, LinkType.CREATE, "sum");
        graph.store(o2);
    }

    Api.Response get(String path) {
        Api.Response r = api(token(Role.READ)).get(path);
        return r;
    }

    JsonNode ok(String path) {
        Api.Response r = get(path);
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    /** "type label uuid" of each link of a page. */
    static List<String> links(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("items")
                .forEach(i ->
                        out.add(i.get("type").asString() + " " + i.get("label").asString() + " "
                                + i.get("node").get("uuid").asString()));
        return out;
    }

    static Set<String> uuids(JsonNode page) {
        Set<String> out = new HashSet<>();
        page.get("items").forEach(i -> out.add(i.get("uuid").asString()));
        return out;
    }

    static Set<String> uuids(Node... nodes) {
        Set<String> out = new HashSet<>();
        for (Node n : nodes) {
            out.add(n.uuid().toString());
        }
        return out;
    }

    @Test
    void incomingLinksComeInTheOrderMadeWithTheirNodes() {
        JsonNode page = ok("/api/v1/nodes/" + calc.uuid() + "/links/incoming?count=true");
        assertEquals(
                List.of("input_calc x " + d1.uuid(), "input_calc y " + d2.uuid(), "call_calc c1 " + wf.uuid()),
                links(page));
        assertEquals(3, page.get("total").asInt());
        JsonNode first = page.get("items").get(0).get("node");
        assertEquals("data.core.int.Int.", first.get("node_type").asString());
        assertEquals("engine@localhost", first.get("user").asString());
        assertEquals(
                List.of("input_calc x " + d1.uuid(), "input_calc y " + d2.uuid()),
                links(ok("/api/v1/nodes/" + calc.uuid() + "/links/incoming?link_types=input_calc")));
        assertEquals(
                List.of("input_calc y " + d2.uuid()),
                links(ok("/api/v1/nodes/" + calc.uuid() + "/links/incoming?link_label=y")));
        assertEquals(
                List.of("call_calc c1 " + wf.uuid()),
                links(ok("/api/v1/nodes/" + calc.uuid() + "/links/incoming?type=workflow")));
    }

    @Test
    void linksArePagedByCursor() {
        List<String> all = new ArrayList<>();
        String url = "/api/v1/nodes/" + calc.uuid() + "/links/incoming?limit=1";
        int pages = 0;
        while (true) {
            Api.Response r = get(url);
            assertEquals(200, r.status(), r.toString());
            all.addAll(links(r.json()));
            pages++;
            if (r.json().get("next") == null) {
                assertNull(r.header("Link"));
                break;
            }
            url = "/api/v1/nodes/" + calc.uuid() + "/links/incoming?limit=1&cursor="
                    + r.json().get("next").asString();
        }
        assertEquals(3, pages);
        assertEquals(links(ok("/api/v1/nodes/" + calc.uuid() + "/links/incoming")), all);
    }

    @Test
    void outgoingLinksOfDataAreTheProcessesThatUsedIt() {
        assertEquals(
                List.of("input_work a " + wf.uuid(), "input_calc x " + calc.uuid()),
                links(ok("/api/v1/nodes/" + d1.uuid() + "/links/outgoing")));
        assertEquals(
                List.of("call_calc c1 " + calc.uuid(), "return result " + o1.uuid()),
                links(ok("/api/v1/nodes/" + wf.uuid() + "/links/outgoing")));
    }

    @Test
    void ancestorsAndDescendantsFollowTheDataProvenanceUnlessToldOtherwise() {
        String o2Path = "/api/v1/nodes/" + o2.uuid();
        assertEquals(uuids(calc2, o1, calc, d1, d2), uuids(ok(o2Path + "/ancestors")));
        assertEquals(uuids(calc2), uuids(ok(o2Path + "/ancestors?depth=1")));
        assertEquals(uuids(calc2, o1), uuids(ok(o2Path + "/ancestors?depth=2")));
        assertEquals(uuids(calc2, o1, calc, d1, d2, wf), uuids(ok(o2Path + "/ancestors?link_types=all")));
        assertEquals(
                uuids(o1, wf, d1, d2),
                uuids(ok(o2Path + "/ancestors?link_types=all&type=Int,WorkChainNode&filter=" + "label=")));
        JsonNode counted = ok("/api/v1/nodes/" + d1.uuid() + "/descendants?count=true&limit=1&order=ctime");
        assertEquals(4, counted.get("total").asInt());
        assertEquals(uuids(calc), uuids(counted));
        assertEquals(uuids(calc, o1, calc2, o2), uuids(ok("/api/v1/nodes/" + d1.uuid() + "/descendants")));
        assertEquals(
                uuids(wf, calc, o1, calc2, o2),
                uuids(ok("/api/v1/nodes/" + d1.uuid() + "/descendants?link_types=input_work,input_calc,create,"
                        + "call_calc,return")));
    }

    @Test
    void badWalksAreRefusedNamingWhatIsValid() {
        Api.Response types = get("/api/v1/nodes/" + o2.uuid() + "/ancestors?link_types=parent");
        assertEquals(400, types.status(), types.toString());
        assertTrue(types.json().get("detail").asString().contains("input_calc"), types.toString());
        Api.Response depth = get("/api/v1/nodes/" + o2.uuid() + "/ancestors?depth=0");
        assertEquals(400, depth.status(), depth.toString());
        Api.Response unknown = get("/api/v1/nodes/00000000-0000-7000-8000-000000000000/links/incoming");
        assertEquals(404, unknown.status(), unknown.toString());
        Api.Response cursor = get("/api/v1/nodes/" + calc.uuid() + "/links/incoming?cursor=abc");
        assertEquals(400, cursor.status(), cursor.toString());
    }
}
