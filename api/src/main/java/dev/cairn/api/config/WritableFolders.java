package dev.cairn.api.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * At start-up: the data directory and the object store's folder (the store, or the cache of a bucket's) are
 * folders this server may write (made when missing).
 * A server that could not would fail later, at its first upload or step with files, with a message that names
 * neither the folder nor the setting.
 */
final class WritableFolders {

    private WritableFolders() {}

    static void require(CairnProperties properties) {
        require(properties.dataDir(), "the data directory", "cairn.data-dir, CAIRN_DATA_DIR");
        if (properties.storeBucket() == null) {
            require(properties.storePath(), "the object store", "cairn.store.path, CAIRN_STORE_PATH");
        } else {
            require(
                    properties.storeFolder(),
                    "the object store's cache",
                    "cairn.store.s3.cache-dir, CAIRN_STORE_S3_CACHEDIR");
        }
    }

    private static void require(Path folder, String what, String settings) {
        Path absolute = folder.toAbsolutePath();
        String reason = null;
        IOException cause = null;
        try {
            Files.createDirectories(absolute);
            if (!Files.isWritable(absolute)) { // access(2): permissions, and a file system mounted read-only
                reason = "not writable";
            }
        } catch (IOException e) {
            reason = reason(e);
            cause = e;
        }
        if (reason != null) {
            throw new StartupProblem(
                    "cannot write " + what + " " + absolute + " (" + reason + "): it must be a folder the user "
                            + System.getProperty("user.name") + " may write (" + settings + ")",
                    cause);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.toString();
    }
}
