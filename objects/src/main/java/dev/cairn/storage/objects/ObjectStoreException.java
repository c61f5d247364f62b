package dev.cairn.storage.objects;

import java.io.IOException;

/** Everything the object store refuses or finds wrong; each subclass carries what was at fault. */
public abstract sealed class ObjectStoreException extends IOException
        permits ObjectNotFoundException,
                CorruptObjectException,
                NotAContainerException,
                UnsupportedContainerException,
                ContainerLockedException,
                BucketUnavailableException {

    ObjectStoreException(String message) {
        super(message);
    }

    ObjectStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
