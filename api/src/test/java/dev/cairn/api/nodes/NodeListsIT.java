package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.users.UserStore;

/** GET /api/v1/nodes: the URL filter language, order, keyset pages, counts, and every refusal naming the valid choices. */
class NodeListsIT extends ApiTest {

    static final int INTS = 30;
    static int all;
    static String tenthCtime;

    /** The nodes every test reads, stored before the first test (the application is the class's own). */
    @BeforeEach
    void fixture() {
        if (all > 0) {
            return;
        }
        for (int i = 0; i < INTS; i++) {
            IntData n = new IntData(i);
            n.setLabel(String.format("n%02d", i));
            n.setExtras(Map.of("parity", i % 2 == 0 ? "even" : "odd"));
            engine.graph().store(n);
            if (i == 10) {
                tenthCtime = n.ctime().toString();
            }
        }
        for (double f : new double[] {1.5, 2.5, 3.5}) {
            engine.graph().store(new FloatData(f));
        }
        engine.graph().store(new StrData("a"));
        engine.graph().store(new StrData("b"));
        long bob = new UserStore(engine.database())
                .create("bob@example.org", "Bob", "", "")
                .id();
        engine.graph().forUser(bob).store(new IntData(100));
        engine.graph().forUser(bob).store(new IntData(101));
        all = INTS + 3 + 2 + 2;
    }

    static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    Api.Response list(String query) {
        return api(token(Role.READ)).get("/api/v1/nodes?" + query);
    }

    /** The items of every page, following the Link headers. */
    List<JsonNode> everyPage(String query) {
        Api api = admin();
        List<JsonNode> items = new ArrayList<>();
        String url = "/api/v1/nodes?" + query;
        while (url != null) {
            Api.Response r = api.get(url);
            assertEquals(200, r.status(), r.toString());
            r.json().get("items").forEach(items::add);
            String link = r.header("Link");
            if (link == null) {
                assertTrue(r.json().get("next") == null, r.toString());
                url = null;
            } else {
                assertTrue(link.endsWith(">; rel=\"next\""), link);
                assertNotNull(r.json().get("next"));
                String next = link.substring(1, link.indexOf('>'));
                url = next.substring(next.indexOf("/api/v1/"));
            }
        }
        return items;
    }

    Set<String> labels(Api.Response r) {
        assertEquals(200, r.status(), r.toString());
        Set<String> labels = new HashSet<>();
        r.json().get("items").forEach(i -> labels.add(i.get("label").asString()));
        return labels;
    }

    int count(String query) {
        Api.Response r = list(query + "&count=true&limit=1");
        assertEquals(200, r.status(), r.toString());
        return r.json().get("total").asInt();
    }

    @Test
    void everyNodeComesOnceOnTheKeysetPagesOfEachOrder() {
        Map<String, Comparator<JsonNode>> orders = Map.of(
                "",
                Comparator.comparing(NodeListsIT::ctime).reversed(),
                "created",
                Comparator.comparing(NodeListsIT::ctime),
                "-ctime",
                Comparator.comparing(NodeListsIT::ctime).reversed(),
                "ctime",
                Comparator.comparing(NodeListsIT::ctime),
                "label,-ctime",
                Comparator.comparing((JsonNode n) -> n.get("label").asString()),
                "-node_type,mtime",
                Comparator.comparing((JsonNode n) -> n.get("node_type").asString())
                        .reversed());
        for (var order : orders.entrySet()) {
            List<JsonNode> items = everyPage("order=" + order.getKey() + "&limit=4");
            Set<String> uuids = new HashSet<>();
            items.forEach(i -> uuids.add(i.get("uuid").asString()));
            assertEquals(all, items.size(), order.getKey());
            assertEquals(all, uuids.size(), order.getKey() + ": a node came twice");
            List<JsonNode> sorted = new ArrayList<>(items);
            sorted.sort(order.getValue());
            for (int i = 0; i < items.size(); i++) {
                assertEquals(0, order.getValue().compare(sorted.get(i), items.get(i)), order.getKey() + " at " + i);
            }
        }
    }

    /** A node's ctime as a time: ISO strings do not sort as times ("….12Z" after "….129Z"). */
    private static Instant ctime(JsonNode node) {
        return Instant.parse(node.get("ctime").asString());
    }

    @Test
    void anItemIsACompactSummaryWithItsOwnersEmail() {
        JsonNode item = list("type=Int&filter=" + q("attributes.value=100"))
                .json()
                .get("items")
                .get(0);
        assertEquals(
                Set.of("uuid", "pk", "node_type", "process_type", "label", "ctime", "mtime", "user"),
                new HashSet<>(item.propertyNames()));
        assertEquals(
                engine.graph()
                        .load(UUID.fromString(item.get("uuid").asString()))
                        .id(),
                item.get("pk").asLong(),
                "the pk is the node's id");
        assertEquals("bob@example.org", item.get("user").asString());
        assertEquals("data.core.int.Int.", item.get("node_type").asString());
        assertTrue(item.get("process_type").isNull());
    }

    @Test
    void filtersAreTypedByTheirField() {
        assertEquals(5, count("filter=" + q("attributes.value>=25") + "&filter=" + q("attributes.value<100")));
        assertEquals(10, count("filter=" + q("label~n0%")));
        assertEquals(10, count("filter=" + q("label~~N2%")));
        assertEquals(all - 10, count("filter=" + q("label!~n0%")));
        assertEquals(15, count("filter=" + q("extras.parity=even")));
        assertEquals(15, count("filter=" + q("extras.parity=\"odd\"")));
        assertEquals(3, count("filter=" + q("attributes.value=in=(1,2,3)")));
        assertEquals(3, count("filter=" + q("attributes.value=in=[1,2,3]")));
        assertEquals(INTS + 2 - 2, count("type=Int&filter=" + q("attributes.value=notin=1,2")));
        assertEquals(1, count("filter=" + q("attributes.value=1.5")));
        assertEquals(2, count("filter=" + q("user=bob@example.org")));
        assertEquals(all - 2, count("filter=" + q("user!=bob@example.org")));
        assertEquals(all, count("filter=" + q("attributes=has_key=value")));
        assertEquals(INTS - 11 + 3 + 2 + 2, count("filter=" + q("ctime>" + tenthCtime)));
        assertEquals(all, count("filter=" + q("ctime>=2020-01-01")));
        assertEquals(0, count("filter=" + q("ctime<2020-01-01T00:00")));
        assertEquals(1, count("filter=" + q("label=n07")));
        assertEquals(Set.of("n07"), labels(list("filter=" + q("label=\"n07\""))));
    }

    @Test
    void typeNamesClassesFamiliesAndPrefixes() {
        assertEquals(3, count("type=Float"));
        assertEquals(3, count("type=FloatData"));
        assertEquals(3 + 2, count("type=float,Str"));
        assertEquals(all, count("type=data"));
        assertEquals(all, count("type=data.core."));
        assertEquals(0, count("type=process"));
    }

    @Test
    void queryTakesTheQueryBuildersJsonFilters() {
        assertEquals(
                Set.of("n00", "n01", "n29"),
                labels(list("type=Int&query="
                        + q("{\"or\": [{\"attributes.value\": {\"<\": 2}}, {\"label\": \"n29\"}]}"))));
    }

    @Test
    void theTotalIsCountedOnlyWhenAskedFor() {
        Api.Response plain = list("limit=2");
        assertNull(plain.json().get("total"));
        assertNull(plain.header("X-Total-Count"));
        Api.Response counted = list("limit=2&count=true");
        assertEquals(all, counted.json().get("total").asInt());
        assertEquals(String.valueOf(all), counted.header("X-Total-Count"));
        assertEquals(2, list("limit=2").json().get("items").size());
    }

    void assertRefused(String query, String... inDetail) {
        Api.Response r = list(query);
        assertEquals(400, r.status(), r.toString());
        assertEquals("urn:cairn:problem:invalid-input", r.json().get("type").asString());
        String detail = r.json().get("detail").asString();
        for (String s : inDetail) {
            assertTrue(detail.contains(s), detail + " should say " + s);
        }
    }

    @Test
    void badFiltersOrdersAndPagesAreRefusedNamingWhatIsValid() {
        assertRefused("filter=" + q("size>3"), "unknown field 'size'", "label", "attributes.<path>");
        assertRefused("filter=" + q("label=near=3"), "unknown operator '=near='", "has_key");
        assertRefused("filter=" + q("ctime~2024%"), "operator 'like' does not apply to ctime");
        assertRefused("filter=" + q("ctime>yesterday"), "ISO date or time");
        assertRefused("filter=" + q("uuid=0190"), "not a uuid", "uuid~0190%");
        assertRefused("filter=labelonly", "<field><operator><value>");
        assertRefused("order=size", "unknown sort field 'size'", "[created, ctime, mtime, label, node_type]");
        assertRefused("order=created,label", "nothing can follow it");
        assertRefused("order=label,label", "names label twice");
        assertRefused("type=Quark", "unknown node type 'Quark'", "StructureData");
        assertRefused("query=" + q("{\"colour\": 1}"), "unknown field 'colour'");
        assertRefused("query=" + q("{not json"), "query: ");
        assertRefused("limit=0", "1 to 1000");
        assertRefused("limit=1001", "1 to 1000");
        assertRefused("cursor=bm90LWEtY3Vyc29y", "not a cursor this server made");
        String next = list("order=label&limit=1").json().get("next").asString();
        assertRefused("order=-ctime&cursor=" + next, "made for the order 'label'");
    }
}
