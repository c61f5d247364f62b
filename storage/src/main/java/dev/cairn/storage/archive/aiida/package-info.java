/**
 * AiiDA's archive format ({@code .aiida}, {@code main_0001}, what every aiida-core 2.x writes) read and
 * written as Cairn's archive rows and objects: {@link dev.cairn.storage.archive.aiida.AiidaArchiveReader}
 * and {@link dev.cairn.storage.archive.aiida.AiidaArchiveWriter}. The zip is read and written by this
 * package's own code (its central directory streamed through SQLite, never held on the heap) and the
 * archive's database through sqlite-jdbc, so neither side needs memory that grows with the archive.
 */
package dev.cairn.storage.archive.aiida;
