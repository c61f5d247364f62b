package dev.cairn.jmh.graph;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StructureData;

/**
 * The comparison's phases that store one thing per transaction, the shape of most of the engine's
 * writes: a structure ({@code store_single}), a file ({@code store_files}) and a calculation's record,
 * the process with its input and output links ({@code store_process}). Each returns its time in
 * nanoseconds and how many it stored; building the nodes is timed, as on the peer's side.
 */
final class SingleStores {

    private final GraphWorkload workload;
    private final GraphStore graph;

    SingleStores(GraphWorkload workload, GraphStore graph) {
        this.workload = workload;
        this.graph = graph;
    }

    /** Each structure built from its attributes and stored in a transaction of its own. */
    long[] structures() throws Exception {
        String label = workload.label("single");
        long[] elapsed = {0};
        long[] count = {0};
        workload.forEachBatch("single.jsonl", Integer.MAX_VALUE, batch -> {
            long start = System.nanoTime();
            for (Map<String, Object> attributes : batch) {
                StructureData s = StructureData.of(attributes);
                s.setLabel(label);
                graph.store(s);
            }
            elapsed[0] += System.nanoTime() - start;
            count[0] += batch.size();
        });
        return new long[] {elapsed[0], count[0]};
    }

    /** Each file a node of its own, its content written to the object store, then the node stored. */
    long[] files() {
        Map<?, ?> spec = workload.shape("files");
        return files(((Number) spec.get("count")).intValue(), (String) spec.get("label"));
    }

    /**
     * Each process a finished, sealed calculation with the same two stored inputs, stored with the
     * output it creates in one transaction, as a step of the engine commits them.
     */
    long[] processes() {
        Map<?, ?> spec = workload.shape("processes");
        return processes(((Number) spec.get("count")).intValue(), (String) spec.get("label"));
    }

    /** Files and processes of {@code label}, which no phase counts, so the JIT has compiled their paths. */
    void warmUp(int files, int processes, String label) {
        files(files, label);
        processes(processes, label);
    }

    private long[] files(int count, String label) {
        Map<?, ?> spec = workload.shape("files");
        int repeats = ((Number) spec.get("repeats")).intValue();
        List<byte[]> contents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String line = ((String) spec.get("line")).replace("<i>", Integer.toString(i)) + "\n";
            contents.add(line.repeat(repeats).getBytes(StandardCharsets.UTF_8));
        }
        String filename = (String) spec.get("filename");
        long start = System.nanoTime();
        for (byte[] content : contents) {
            SinglefileData file = new SinglefileData(filename, content);
            file.setLabel(label);
            graph.store(file);
        }
        return new long[] {System.nanoTime() - start, count};
    }

    private long[] processes(int count, String label) {
        Map<?, ?> spec = workload.shape("processes");
        Map<?, ?> attributes = (Map<?, ?>) spec.get("attributes");
        List<IntData> inputs = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        long sum = 0;
        for (Map.Entry<?, ?> input : ((Map<?, ?>) spec.get("inputs")).entrySet()) {
            long value = ((Number) input.getValue()).longValue();
            inputs.add(new IntData(value));
            labels.add((String) input.getKey());
            sum += value;
        }
        graph.storeAll(inputs);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            CalcFunctionNode calc = new CalcFunctionNode((String) spec.get("process_type"));
            calc.setLabel(label);
            calc.setProcessState((String) attributes.get("process_state"));
            calc.setExitStatus(((Number) attributes.get("exit_status")).intValue());
            calc.setStaticAttribute("function_name", attributes.get("function_name"));
            for (int j = 0; j < inputs.size(); j++) {
                calc.addIncoming(inputs.get(j), LinkType.INPUT_CALC, labels.get(j));
            }
            calc.sealBeforeStore();
            IntData output = new IntData(sum);
            output.addIncoming(calc, LinkType.CREATE, (String) spec.get("output_label"));
            graph.storeAll(List.of(calc, output));
        }
        return new long[] {System.nanoTime() - start, count};
    }
}
