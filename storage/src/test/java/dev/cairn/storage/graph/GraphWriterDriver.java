package dev.cairn.storage.graph;

import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;

/**
 * One writer of {@link ConcurrentWritersIT}, run in a JVM of its own:
 * {@code GraphWriterDriver JDBC_URL USER_ID NAME FIRST_CALC_ID CALCS BATCHES}.
 * <p>
 * For each calculation it stores an output labelled {@code out} (another writer races for
 * the same label), then stores batches of 50 new nodes in which one output again races for
 * a shared label. It prints {@code stored N refused M batches_stored B batches_refused R}.
 */
public final class GraphWriterDriver {

    public static void main(String[] args) {
        String url = args[0];
        long user = Long.parseLong(args[1]);
        String name = args[2];
        long firstCalc = Long.parseLong(args[3]);
        int calcs = Integer.parseInt(args[4]);
        int batches = Integer.parseInt(args[5]);
        int stored = 0, refused = 0, batchesStored = 0, batchesRefused = 0;
        try (Database database = Database.open(DatabaseConfig.of(url).withPoolSize(2))) {
            GraphStore graph = new GraphStore(database, null, user);
            List<CalcFunctionNode> shared = new ArrayList<>();
            for (int i = 0; i < calcs; i++) {
                shared.add(graph.load(firstCalc + i, CalcFunctionNode.class));
            }
            for (CalcFunctionNode calc : shared) {
                IntData out = new IntData(1);
                out.setLabel(name);
                out.addIncoming(calc, LinkType.CREATE, "out");
                try {
                    graph.store(out);
                    stored++;
                } catch (LinkRuleException e) {
                    refused++;
                }
            }
            for (int b = 0; b < batches; b++) {
                List<Node> batch = new ArrayList<>();
                CalcFunctionNode calc = new CalcFunctionNode("cairn.batch");
                batch.add(calc);
                for (int i = 0; i < 48; i++) {
                    IntData d = new IntData(i);
                    d.setLabel(name + "-batch-" + b);
                    d.addIncoming(calc, LinkType.CREATE, "r" + i);
                    batch.add(d);
                }
                IntData racing = new IntData(-1);
                racing.setLabel(name + "-batch-" + b);
                racing.addIncoming(shared.get(b % shared.size()), LinkType.CREATE, "batch_" + b);
                batch.add(racing);
                try {
                    graph.storeAll(batch);
                    batchesStored++;
                } catch (LinkRuleException e) {
                    batchesRefused++;
                }
            }
        }
        System.out.println("stored " + stored + " refused " + refused + " batches_stored " + batchesStored
                + " batches_refused " + batchesRefused);
    }
}
