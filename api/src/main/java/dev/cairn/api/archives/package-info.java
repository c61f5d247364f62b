/**
 * {@code /api/v1/archive}: provenance moved between installations as archive files. An export of a
 * starting set (groups, nodes, computers, codes) closed under the EXPORT traversal rules, or of
 * everything, is counted first (so that an unknown name or an unsealed process is a problem, not a
 * broken download) and then streamed from one snapshot as the response (role read); an upload is
 * imported all or nothing as it arrives (role admin), or read through and verified without importing
 * (role read). The format is chosen in one place, {@link dev.cairn.storage.archive.ArchiveFormat}.
 */
package dev.cairn.api.archives;
