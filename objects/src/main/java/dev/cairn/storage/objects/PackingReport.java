package dev.cairn.storage.objects;

import java.util.List;

/**
 * What {@link Container#packAllLoose} did.
 *
 * @param objectsPacked loose objects copied into packs
 * @param bytesPacked   their uncompressed size
 * @param damaged       loose files whose content no longer matches their name; left where they are
 */
public record PackingReport(int objectsPacked, long bytesPacked, List<ObjectKey> damaged) {}
