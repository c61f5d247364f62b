/**
 * {@code /api/v1/events}: process state changes as Server-Sent Events, for every process, one
 * process or a call tree. One subscription to the engine's broadcasts feeds every stream, in the
 * order of the changes' ids ({@code EventHub}); a client that reconnects with its
 * {@code Last-Event-ID} gets what it missed from the table {@code process_event}, once. Old
 * changes are deleted after {@code cairn.events.retention}.
 */
package dev.cairn.api.events;
