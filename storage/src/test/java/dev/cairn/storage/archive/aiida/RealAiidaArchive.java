package dev.cairn.storage.archive.aiida;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;

/**
 * An archive aiida-core 2.9.4 wrote of a graph it made by running processes, and the script's report of
 * what the profile held ({@link AiidaPython#build}):
 * {@snippet :
 * @RegisterExtension static final RealAiidaArchive aiida = new RealAiidaArchive();
 * }
 * Built once per test run, on first use, and shared by every class that registers it (the root context's
 * store keeps it and deletes its folder when the run ends): aiida-core takes some ten seconds for it.
 */
final class RealAiidaArchive implements BeforeAllCallback {

    private Built built;

    /** The archive and report, and the folder (deleted with it) they are in. */
    private record Built(Path folder, Path archive, JsonNode report) implements AutoCloseable {

        @Override
        public void close() throws IOException {
            Scratch.delete(folder);
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        built = context.getRoot()
                .getStore(ExtensionContext.Namespace.create(RealAiidaArchive.class))
                .computeIfAbsent(Built.class, type -> build(), Built.class);
    }

    private static Built build() {
        try {
            Path folder = Files.createTempDirectory("cairn-real-aiida-");
            Path archive = folder.resolve("fixture.aiida");
            JsonNode report = AiidaPython.build(archive, folder.resolve("home"));
            return new Built(folder, archive, report);
        } catch (IOException e) {
            throw new IllegalStateException("building the AiiDA archive: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the AiiDA archive", e);
        }
    }

    /** The {@code .aiida} file aiida-core wrote. */
    Path archive() {
        return built.archive();
    }

    /** What the profile held when it was exported (see the script's documentation). */
    JsonNode report() {
        return built.report();
    }

    /** The uuid of the sample node or group {@code name} ({@code structure}, {@code calcjob}, ...). */
    String sample(String name) {
        return built.report().get("samples").get(name).asString();
    }
}
