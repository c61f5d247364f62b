package dev.cairn.engine.internal.state;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.db.JsonCodec;

/**
 * Where a work chain stands between steps: its position in the outline as a stack of
 * (block, next instruction) frames, its context, and the children it waits for (in the
 * order they were awaited, which is the order they are appended).
 */
public record WorkChainCheckpoint(List<Frame> frames, Map<String, Object> context, List<Awaited> awaiting)
        implements Checkpoint {

    public record Frame(int block, int index) {}

    public record Awaited(long child, String key, boolean append) {}

    public static final WorkChainCheckpoint START =
            new WorkChainCheckpoint(List.of(new Frame(0, 0)), Map.of(), List.of());

    public WorkChainCheckpoint {
        frames = List.copyOf(frames);
        context = new LinkedHashMap<>(context);
        awaiting = List.copyOf(awaiting);
    }

    @SuppressWarnings("unchecked")
    public static WorkChainCheckpoint fromJson(Map<String, Object> json) {
        if (json.isEmpty()) {
            return START;
        }
        List<Frame> frames = new ArrayList<>();
        for (Object f : (List<Object>) json.get("frames")) {
            List<Number> pair = (List<Number>) f;
            frames.add(new Frame(pair.get(0).intValue(), pair.get(1).intValue()));
        }
        List<Awaited> awaiting = new ArrayList<>();
        for (Object a : (List<Object>) json.getOrDefault("awaiting", List.of())) {
            Map<String, Object> m = (Map<String, Object>) a;
            awaiting.add(new Awaited(
                    ((Number) m.get("child")).longValue(),
                    (String) m.get("key"),
                    Boolean.TRUE.equals(m.get("append"))));
        }
        return new WorkChainCheckpoint(frames, (Map<String, Object>) json.getOrDefault("context", Map.of()), awaiting);
    }

    @Override
    public String toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(
                "frames",
                frames.stream().map(f -> List.of(f.block(), f.index())).toList());
        json.put("context", context);
        json.put(
                "awaiting",
                awaiting.stream()
                        .map(a -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("child", a.child());
                            m.put("key", a.key());
                            m.put("append", a.append());
                            return m;
                        })
                        .toList());
        return JsonCodec.write(json);
    }
}
