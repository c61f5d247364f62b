package dev.cairn.storage.objects;

/** Another packer (packing, bulk pack writes, repack, clean) holds the container's pack lock. */
public final class ContainerLockedException extends ObjectStoreException {

    public ContainerLockedException(String message) {
        super(message);
    }
}
