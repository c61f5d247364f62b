package dev.cairn.storage.objects;

/** The stored bytes of an object are damaged: they do not decode or do not match the key. */
public final class CorruptObjectException extends ObjectStoreException {

    private final ObjectKey key;

    public CorruptObjectException(ObjectKey key, String what) {
        super("object " + key + " is damaged: " + what);
        this.key = key;
    }

    public CorruptObjectException(ObjectKey key, String what, Throwable cause) {
        super("object " + key + " is damaged: " + what, cause);
        this.key = key;
    }

    public ObjectKey key() {
        return key;
    }
}
