package dev.cairn.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.process.ProcessState.Transition;

/**
 * The moves of the state table that the suite's engines made, across the module's test JVMs: each JVM writes
 * those of its engines to a file of its own as it exits, in the folder the system property {@value #FOLDER}
 * names (engine/pom.xml gives each build one); {@link #made()} adds them up for the coverage test, which runs
 * after the others. Without the property nothing is written and only this JVM's engines count.
 */
public final class StateMoves {

    static final String FOLDER = "cairn.test.state-moves";

    private StateMoves() {}

    /** Writes the moves of the engines {@link EngineFixture} opened in this JVM when it exits. */
    static void writeAtExit() {
        folder().ifPresent(folder -> {
            Path file = folder.resolve(ProcessHandle.current().pid() + ".moves");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> write(file), "state-moves"));
        });
    }

    /** The moves made by the engines of this JVM and by those of the module's test JVMs that ended before it. */
    public static Map<Transition, Long> made() {
        Map<Transition, Long> made = ofThisJvm();
        Optional<Path> folder = folder().filter(Files::isDirectory);
        if (folder.isEmpty()) {
            return made;
        }
        try (Stream<Path> files = Files.list(folder.get())) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    String[] words = line.split(" ");
                    Transition move = new Transition(ProcessState.valueOf(words[0]), ProcessState.valueOf(words[1]));
                    made.merge(move, Long.parseLong(words[2]), Long::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the moves in " + folder.get(), e);
        }
        return made;
    }

    private static Optional<Path> folder() {
        String folder = System.getProperty(FOLDER);
        return folder == null || folder.isBlank() ? Optional.empty() : Optional.of(Path.of(folder));
    }

    private static Map<Transition, Long> ofThisJvm() {
        Map<Transition, Long> made = new HashMap<>();
        for (Engine engine : EngineFixture.opened()) {
            engine.transitionCounts().forEach((move, n) -> made.merge(move, n, Long::sum));
        }
        return made;
    }

    private static void write(Path file) {
        List<String> lines = new ArrayList<>();
        ofThisJvm()
                .forEach((move, n) ->
                        lines.add(move.from().name() + " " + move.to().name() + " " + n));
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            System.err.println("cannot write the moves of the state table to " + file + ": " + e);
        }
    }
}
