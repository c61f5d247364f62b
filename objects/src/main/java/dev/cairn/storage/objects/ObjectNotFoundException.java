package dev.cairn.storage.objects;

import java.util.List;

/** No object with the key (or keys) asked for exists in the container. */
public final class ObjectNotFoundException extends ObjectStoreException {

    private final List<ObjectKey> keys;

    public ObjectNotFoundException(ObjectKey key) {
        this(List.of(key));
    }

    public ObjectNotFoundException(List<ObjectKey> keys) {
        super(message(keys));
        this.keys = List.copyOf(keys);
    }

    private static String message(List<ObjectKey> keys) {
        if (keys.size() == 1) {
            return "no object with key " + keys.get(0);
        }
        String shown = keys.subList(0, Math.min(5, keys.size())).toString();
        return keys.size() + " objects not found, among them " + shown;
    }

    /** The missing keys. */
    public List<ObjectKey> keys() {
        return keys;
    }
}
