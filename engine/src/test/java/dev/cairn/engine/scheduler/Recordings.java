package dev.cairn.engine.scheduler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Outputs of the batch systems' tools kept under src/test/resources/scheduler (see the README there). */
final class Recordings {

    private Recordings() {}

    static String read(String name) {
        try (InputStream in = Recordings.class.getResourceAsStream("/scheduler/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no recording scheduler/" + name + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
