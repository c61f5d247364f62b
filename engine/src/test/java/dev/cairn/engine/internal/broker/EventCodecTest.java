package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.JsonCodec;

class EventCodecTest {

    @Test
    void aStateChangeCrossesTheWireWithItsTime() {
        StateChanged change = new StateChanged(
                41,
                7,
                UUID.randomUUID(),
                3L,
                "arithmetic.add_multiply",
                ProcessState.CREATED,
                ProcessState.FINISHED,
                0,
                Instant.parse("2026-11-24T15:13:01.123456Z"),
                null);
        Map<String, Object> wire = JsonCodec.readObject(JsonCodec.write(EventCodec.write(change)));
        assertEquals(change, EventCodec.readStateChanged(wire));
        assertEquals("state.7.finished", EventCodec.routingKey(change));
    }

    @Test
    void aStateChangeFromAnOlderSenderHasNoTime() {
        StateChanged read = EventCodec.readStateChanged(Map.of(
                "event",
                5,
                "process",
                9,
                "uuid",
                UUID.randomUUID().toString(),
                "entryPoint",
                "arithmetic.add",
                "from",
                "created",
                "to",
                "waiting"));
        assertNull(read.time());
        assertNull(read.callerId());
        assertNull(read.scheduler());
        assertEquals(ProcessState.WAITING, read.to());
    }

    @Test
    void aSchedulerMoveCrossesTheWireWithBothStatesTheFirstOneNull() {
        for (StateChanged.SchedulerMove move : new StateChanged.SchedulerMove[] {
            new StateChanged.SchedulerMove(null, "queued"), new StateChanged.SchedulerMove("queued", "running")
        }) {
            StateChanged change = new StateChanged(
                    42,
                    7,
                    UUID.randomUUID(),
                    null,
                    "core.shell",
                    ProcessState.WAITING,
                    ProcessState.WAITING,
                    null,
                    Instant.parse("2026-11-29T13:30:00Z"),
                    move);
            Map<String, Object> wire = JsonCodec.readObject(JsonCodec.write(EventCodec.write(change)));
            assertEquals(change, EventCodec.readStateChanged(wire));
        }
    }
}
