package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;

/** DELETE /api/v1/nodes: the deletion rules' closure, a dry run that changes nothing, and what is refused. */
class NodeDeleteIT extends ApiTest {

    /** x -> calc -> result, the calc sealed (ended) unless {@code running}. */
    record Chain(IntData x, CalcFunctionNode calc, IntData result) {}

    Chain chain(boolean running) {
        IntData x = engine.graph().store(new IntData(1));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        IntData result = new IntData(2);
        if (!running) {
            calc.sealBeforeStore();
            result.addIncoming(calc, LinkType.CREATE, "result");
            engine.graph().storeAll(List.of(calc, result));
        } else {
            engine.graph().store(calc);
            result = engine.graph().store(new IntData(2));
        }
        return new Chain(x, calc, result);
    }

    Api submitter() {
        return api(token(Role.SUBMIT));
    }

    static Set<String> uuids(JsonNode report) {
        return report.get("nodes")
                .valueStream()
                .map(n -> n.get("uuid").asString())
                .collect(Collectors.toSet());
    }

    @Test
    void aDryRunListsTheClosureAndChangesNothingThenTheDeletionRemovesIt() {
        Chain c = chain(false);
        Api.Response plan = submitter().delete("/api/v1/nodes?node=" + c.x().uuid() + "&dry_run=true");
        assertEquals(200, plan.status(), plan.toString());
        assertTrue(plan.json().get("dry_run").asBoolean());
        assertEquals(3, plan.json().get("count").asLong(), plan.toString());
        assertEquals(
                Set.of(
                        c.x().uuid().toString(),
                        c.calc().uuid().toString(),
                        c.result().uuid().toString()),
                uuids(plan.json()));
        assertEquals(2, plan.json().get("by_type").get("data.core.int.Int.").asLong());
        assertEquals(200, submitter().get("/api/v1/nodes/" + c.result().uuid()).status(), "a dry run deletes nothing");

        Api.Response done = submitter().delete("/api/v1/nodes?node=" + c.x().uuid());
        assertEquals(200, done.status(), done.toString());
        assertEquals(false, done.json().get("dry_run").asBoolean());
        assertEquals(3, done.json().get("count").asLong());
        assertEquals(2, done.json().get("links").asLong());
        for (var uuid : List.of(c.x().uuid(), c.calc().uuid(), c.result().uuid())) {
            assertEquals(404, submitter().get("/api/v1/nodes/" + uuid).status(), uuid + " is gone");
        }
    }

    @Test
    void createForwardSwitchedOffKeepsWhatTheCalculationMadeButNeverItsInputsProvenance() {
        Chain c = chain(false);
        Api.Response plan =
                submitter().delete("/api/v1/nodes?node=" + c.calc().uuid() + "&dry_run=true&disable=create_forward");
        assertEquals(200, plan.status(), plan.toString());
        assertEquals(Set.of(c.calc().uuid().toString()), uuids(plan.json()));
    }

    @Test
    void aFixedRuleARunningProcessAnUnknownNodeAndNoNodeAreRefused() {
        Chain ended = chain(false);
        Api.Response fixed = submitter()
                .delete("/api/v1/nodes?node=" + ended.x().uuid() + "&dry_run=true&disable=input_calc_forward");
        assertEquals(400, fixed.status(), fixed.toString());
        assertTrue(fixed.json().get("detail").asString().contains("input_calc_forward"), fixed.toString());

        Chain running = chain(true);
        Api.Response refused =
                submitter().delete("/api/v1/nodes?node=" + running.x().uuid());
        assertEquals(409, refused.status(), refused.toString());
        assertTrue(refused.json()
                .get("detail")
                .asString()
                .contains(running.calc().uuid().toString()));
        assertEquals(200, submitter().get("/api/v1/nodes/" + running.x().uuid()).status(), "nothing was deleted");

        assertEquals(
                404,
                submitter()
                        .delete("/api/v1/nodes?node=00000000-0000-7000-8000-000000000000")
                        .status());
        assertEquals(400, submitter().delete("/api/v1/nodes").status());
        assertEquals(
                403,
                api(token(Role.READ))
                        .delete("/api/v1/nodes?node=" + ended.x().uuid())
                        .status());
    }
}
