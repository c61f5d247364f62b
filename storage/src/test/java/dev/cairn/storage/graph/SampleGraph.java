package dev.cairn.storage.graph;

import static dev.cairn.storage.graph.LinkType.CALL_CALC;
import static dev.cairn.storage.graph.LinkType.CALL_WORK;
import static dev.cairn.storage.graph.LinkType.CREATE;
import static dev.cairn.storage.graph.LinkType.INPUT_CALC;
import static dev.cairn.storage.graph.LinkType.INPUT_WORK;
import static dev.cairn.storage.graph.LinkType.RETURN;

import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * A small workflow with every link type, plus an unrelated calculation:
 * <pre>
 *   ow (outer workflow) --call_work--> w (workflow), d1 --input_work--> ow, w
 *   w --call_calc--> c1, c2, c3;  w --return--> d3
 *   d1, dp --input_calc--> c1 --create--> d2 --input_calc--> c2 --create--> d3
 *   dp --input_calc--> c3 --create--> d4
 *   d9 --input_calc--> c9 --create--> d10        (unrelated)
 * </pre>
 */
public final class SampleGraph {

    public final long d1, dp, d2, d3, d4, ow, w, c1, c2, c3, d9, c9, d10;
    public final int links = 17;

    public SampleGraph(GraphRows rows) throws SQLException {
        d1 = rows.data();
        dp = rows.data();
        ow = rows.workflow();
        w = rows.workflow();
        c1 = rows.calc();
        d2 = rows.data();
        c2 = rows.calcJob();
        d3 = rows.data();
        c3 = rows.calc();
        d4 = rows.data();
        d9 = rows.data();
        c9 = rows.calc();
        d10 = rows.data();
        rows.link(d1, ow, INPUT_WORK, "x");
        rows.link(ow, w, CALL_WORK, "CALL");
        rows.link(d1, w, INPUT_WORK, "x");
        rows.link(d1, c1, INPUT_CALC, "x");
        rows.link(dp, c1, INPUT_CALC, "parameters");
        rows.link(w, c1, CALL_CALC, "CALL");
        rows.link(c1, d2, CREATE, "result");
        rows.link(d2, c2, INPUT_CALC, "x");
        rows.link(w, c2, CALL_CALC, "CALL");
        rows.link(c2, d3, CREATE, "result");
        rows.link(dp, c3, INPUT_CALC, "parameters");
        rows.link(w, c3, CALL_CALC, "CALL");
        rows.link(c3, d4, CREATE, "result");
        rows.link(w, d3, RETURN, "result");
        rows.link(d9, c9, INPUT_CALC, "x");
        rows.link(c9, d10, CREATE, "result");
        rows.link(dp, c9, INPUT_CALC, "parameters");
    }

    public Set<Long> all() {
        return set(d1, dp, d2, d3, d4, ow, w, c1, c2, c3, d9, c9, d10);
    }

    public static Set<Long> set(long... ids) {
        Set<Long> set = new TreeSet<>();
        for (long id : ids) {
            set.add(id);
        }
        return set;
    }
}
