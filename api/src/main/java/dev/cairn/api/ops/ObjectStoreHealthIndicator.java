package dev.cairn.api.ops;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import dev.cairn.api.config.CairnProperties;

/**
 * The object store's folder (of a store in a bucket: this host's cache of it, where large writes are
 * spooled): up while it is a folder this server may read and write (a lost mount,
 * a file system remounted read-only, or a full disk would fail every upload and every step that
 * stores files), with the space left on its file system.
 */
@Component
class ObjectStoreHealthIndicator implements HealthIndicator {

    private final Path root;

    ObjectStoreHealthIndicator(CairnProperties properties) {
        this.root = properties.storeFolder().toAbsolutePath();
    }

    @Override
    public Health health() {
        Health.Builder health = Health.up();
        String problem = null;
        if (!Files.isDirectory(root)) {
            problem = "the folder is missing";
        } else if (!Files.isReadable(root) || !Files.isWritable(root)) {
            problem = "this server may not read and write it";
        }
        try {
            FileStore store = Files.getFileStore(root);
            long usable = store.getUsableSpace();
            health.withDetail("free", usable).withDetail("total", store.getTotalSpace());
            if (problem == null && usable == 0) {
                problem = "its file system is full";
            }
        } catch (IOException e) {
            problem = problem != null ? problem : "its file system does not answer: " + e.getMessage();
        }
        health.withDetail("path", root.toString());
        if (problem != null) {
            health.down().withDetail("error", problem);
        }
        return health.build();
    }
}
