package dev.cairn.storage.archive;

import dev.cairn.storage.errors.UnavailableException;

/** Reading or writing an archive's file or stream failed: a full disk, a client that went away. */
class ArchiveIoException extends UnavailableException {

    public ArchiveIoException(String message, Throwable cause) {
        super(message, cause);
    }
}
