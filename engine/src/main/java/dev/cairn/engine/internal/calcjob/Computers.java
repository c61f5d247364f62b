package dev.cairn.engine.internal.calcjob;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * The stored computers as the engine reads them, kept for a few seconds: every step of a
 * calculation job needs its computer, and reading it each time cost a connection and a
 * query per step. A changed setting takes effect within {@link #FRESH}.
 */
public final class Computers {

    static final Duration FRESH = Duration.ofSeconds(5);

    private record Loaded(Computer computer, ComputerSettings settings, long at) {}

    private final ComputerStore store;
    private final Map<Long, Loaded> loaded = new ConcurrentHashMap<>();

    public Computers(Database database) {
        this.store = new ComputerStore(database);
    }

    public Computer get(long id) {
        return load(id).computer;
    }

    /** The computer's settings, checked; a bad setting is thrown at every use until it is fixed. */
    public ComputerSettings settings(long id) {
        Loaded l = load(id);
        return l.settings != null ? l.settings : ComputerSettings.of(l.computer);
    }

    private Loaded load(long id) {
        long now = System.nanoTime();
        Loaded l = loaded.get(id);
        if (l == null || now - l.at > FRESH.toNanos()) {
            Computer computer = store.get(id);
            ComputerSettings settings;
            try {
                settings = ComputerSettings.of(computer);
            } catch (RuntimeException e) {
                settings = null;
            }
            l = new Loaded(computer, settings, now);
            loaded.put(id, l);
        }
        return l;
    }
}
