package dev.cairn.storage.objects;

/**
 * What {@link Container#repack} did.
 *
 * @param packsRewritten  packs whose live objects were copied to new packs (and which were then deleted)
 * @param objectsMoved    objects copied
 * @param bytesBefore     bytes of the rewritten packs
 * @param bytesAfter      bytes of the packs that replaced them
 */
public record RepackReport(int packsRewritten, long objectsMoved, long bytesBefore, long bytesAfter) {}
