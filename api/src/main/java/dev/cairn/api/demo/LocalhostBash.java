package dev.cairn.api.demo;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.Engine;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.QueryBuilder;

/**
 * This machine as a computer ({@code localhost}: the local transport, the direct scheduler, a work
 * directory under the data directory) and bash on it as an installed code ({@code bash@localhost}),
 * made when missing and found again on later starts, whoever made them.
 */
final class LocalhostBash {

    static final String COMPUTER = "localhost";
    static final String CODE = "bash";
    static final String BASH = "/bin/bash";

    private final Engine engine;
    private final Path workdir;

    LocalhostBash(Engine engine, Path workdir) {
        this.engine = engine;
        this.workdir = workdir;
    }

    /** The code {@code bash@localhost}, stored now if no start stored it before. */
    InstalledCode code() {
        Computer localhost = computer();
        return find(localhost).orElseGet(() -> {
            InstalledCode bash = new InstalledCode(localhost.id(), BASH);
            bash.setLabel(CODE);
            bash.setDescription("bash on this machine, for the demo's arithmetic.add jobs");
            return engine.graph().store(bash);
        });
    }

    private Computer computer() {
        ComputerStore computers = engine.storage().computers();
        return computers.findByLabel(COMPUTER).orElseGet(() -> {
            try {
                return computers.create(new ComputerSpec(
                        COMPUTER,
                        "localhost",
                        "this machine, through a local shell and the direct scheduler",
                        "core.local",
                        "core.direct",
                        Map.of("workdir", workdir.toString())));
            } catch (ConflictException raced) {
                return computers.findByLabel(COMPUTER).orElseThrow(() -> raced);
            }
        });
    }

    private Optional<InstalledCode> find(Computer computer) {
        return engine.storage()
                .query(QueryBuilder.start()
                        .node(
                                "code",
                                v -> v.exactType(InstalledCode.TYPE)
                                        .where(Filter.and(
                                                Filter.field("label").eq(CODE),
                                                Filter.field("computer_id").eq(computer.id()),
                                                Filter.field("attributes.filepath_executable")
                                                        .eq(BASH)))
                                        .project("id"))
                        .orderBy(Order.asc("code", "id"))
                        .limit(1)
                        .build())
                .first()
                .map(row -> engine.graph().load(((Number) row.get(0)).longValue(), InstalledCode.class));
    }
}
