package dev.cairn.api.events;

/**
 * A state change as the hub hands it to streams: the processes it concerns, and its SSE frame,
 * rendered once for every stream that sends it.
 *
 * @param id        the change's id in {@code process_event}
 * @param processId the process's node id
 * @param callerId  its caller's node id, or null
 * @param frame     the SSE event: {@code id}, {@code event: state}, the JSON data
 * @param lateFrame the same without its {@code id}: for a change sent after later ones, which must not
 *                  move a client's {@code Last-Event-ID} back
 */
record StateEvent(long id, long processId, Long callerId, String frame, String lateFrame) {

    static StateEvent of(long id, long processId, Long callerId, String json) {
        String late = "event: state\ndata: " + json + "\n\n";
        return new StateEvent(id, processId, callerId, "id: " + id + "\n" + late, late);
    }
}
