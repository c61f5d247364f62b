package dev.cairn.storage.views;

import java.time.OffsetDateTime;
import java.util.UUID;

import dev.cairn.storage.graph.NodeFiles;

/**
 * One node as a server shows it: its columns, its owner's email, its computer, its attributes and
 * extras as the database's JSON text (passed on without being decoded), its files and how many
 * links it has each way.
 *
 * @param computerUuid  the computer of a code, remote folder or calculation job; null otherwise
 * @param computerLabel that computer's label; null with it
 * @param attributes    the attributes as JSON text, all or the keys asked for
 * @param extras        the extras as JSON text, all or the keys asked for
 * @param incoming      how many links come into the node
 * @param outgoing      how many links leave it
 */
public record NodeView(
        UUID uuid,
        long id,
        String nodeType,
        String processType,
        String label,
        String description,
        OffsetDateTime ctime,
        OffsetDateTime mtime,
        String userEmail,
        UUID computerUuid,
        String computerLabel,
        String hash,
        String attributes,
        String extras,
        NodeFiles files,
        long incoming,
        long outgoing) {}
