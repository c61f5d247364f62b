package dev.cairn.api.query;

import tools.jackson.core.JsonGenerator;

import dev.cairn.storage.query.Row;

/** How a streamed query writes its rows as lines: what comes first, each row, what comes last. */
interface RowLines {

    void begin(JsonGenerator g);

    void row(JsonGenerator g, Row row);

    void end(JsonGenerator g);
}
