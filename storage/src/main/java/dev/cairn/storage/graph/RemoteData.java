package dev.cairn.storage.graph;

import java.util.Objects;

import dev.cairn.storage.errors.InvalidInputException;

/** A folder on a computer, pointed at but not copied: {@code remote_path} on the node's computer. */
public final class RemoteData extends Data {

    public static final String TYPE = "data.core.remote.RemoteData.";

    /**
     * A folder at {@code remotePath} on computer {@code computerId}.
     *
     * @throws InvalidInputException if the path is not absolute
     */
    public RemoteData(long computerId, String remotePath) {
        super(TYPE);
        Objects.requireNonNull(remotePath, "remotePath");
        if (!remotePath.startsWith("/")) {
            throw new InvalidInputException("remote path must be absolute: " + remotePath);
        }
        setComputerId(computerId);
        setAttribute("remote_path", remotePath);
    }

    RemoteData(NodeRecord row) {
        super(row);
    }

    /** The folder's absolute path on its computer. */
    public String remotePath() {
        return (String) attribute("remote_path");
    }
}
