package dev.cairn.api.query;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.web.Paging;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * Queries in the query builder's JSON form ({@link QuerySpec#fromJson}): a page of rows at a time,
 * or every row as a stream of JSON lines, read from a database cursor and written as they come.
 */
@RestController
@RequestMapping("/api/v1/query")
@Tag(name = "query", description = "Queries of the provenance graph in the query builder's JSON form")
class QueryController {

    private static final Logger LOG = LoggerFactory.getLogger(QueryController.class);
    static final String NDJSON = "application/x-ndjson";
    /** Rows written between two flushes of a stream. */
    private static final int FLUSH_EVERY = 256;
    /**
     * The response's buffer, and so the size of its chunks: Tomcat's 8 KiB made a text read of 24 MB
     * 3,300 chunks, and a client's HTTP library spends its time per chunk, not per byte.
     */
    private static final int STREAM_BUFFER = 256 * 1024;

    private static final String EXAMPLE = "{\"path\": [{\"tag\": \"s\", \"entity\": \"node\", \"node_type\":"
            + " \"data.core.structure.StructureData.\", \"filters\": {\"attributes.sites\": {\"longer\": 4}},"
            + " \"project\": [\"uuid\", \"attributes.cell\"]}, {\"tag\": \"c\", \"entity\": \"node\","
            + " \"with_outgoing\": \"s\", \"node_type\": \"process.calculation.\", \"project\": [\"uuid\"]}],"
            + " \"order_by\": [{\"tag\": \"s\", \"field\": \"ctime\", \"order\": \"desc\"}]}";

    /** A page of rows, for the API's description. */
    @Schema(name = "QueryPage", description = "A page of query rows")
    record QueryPage(
            @Schema(
                    description = "The rows: one object per row, keyed by vertex tag, holding that vertex's"
                            + " projections by key; a whole row (*) is spread into its tag's object",
                    example = "[{\"s\": {\"uuid\": \"0190c1a2-…\", \"attributes.cell\": [[4,0,0],[0,4,0],[0,0,4]]},"
                            + " \"c\": {\"uuid\": \"0190c1a3-…\"}}]")
            List<Map<String, Map<String, Object>>> items,

            @Schema(description = "The cursor of the next page; absent on the last")
            String next,

            @Schema(description = "Every row of the query, when count=true")
            Long total) {}

    private final QueryService queries;
    private final int pageMax;

    QueryController(QueryService queries, CairnProperties properties) {
        this.queries = queries;
        this.pageMax = properties.limits().pageMax();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "queryPage",
            summary = "Run a query, a page of rows at a time",
            description = "The body is the query builder's JSON form: a path of vertices (node, group, computer, user,"
                    + " comment, log) joined by relationships, with filters, projections, order_by, limit and offset."
                    + " Rows come a page at a time: pass `next` back as `cursor` with the same body. Pages are taken"
                    + " by position, so give the query an order_by for stable pages, and stream large results"
                    + " (POST /api/v1/query/stream) rather than paging deep into them. A query naming an unknown"
                    + " field, operator, relationship or tag is refused with 400 naming it and the valid choices.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = @Content(examples = @ExampleObject(value = EXAMPLE))))
    @ApiResponse(
            responseCode = "200",
            description = "A page of rows",
            content = @Content(schema = @Schema(implementation = QueryPage.class)))
    void page(
            @RequestBody String body,
            @Parameter(description = "Rows per page, 1 to cairn.limits.page-max; default 100")
                    @RequestParam(name = "limit", required = false)
                    Integer limit,
            @Parameter(description = "The `next` of the previous page, with the same body")
                    @RequestParam(name = "cursor", required = false)
                    String cursor,
            @Parameter(description = "Also count every row of the query (one more statement)")
                    @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        QuerySpec spec = QuerySpec.fromJson(body);
        int size = Paging.limit(limit, pageMax);
        QueryService.RowPage page = queries.page(spec, size, cursor, count);
        RowJson json = new RowJson(spec);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        try (JsonGenerator g = RowJson.MAPPER.createGenerator(response.getOutputStream())) {
            g.writeStartObject();
            g.writeName("items");
            g.writeStartArray();
            for (Row row : page.rows()) {
                json.write(g, row);
            }
            g.writeEndArray();
            if (page.next() != null) {
                g.writeStringProperty("next", page.next());
            }
            if (page.total() != null) {
                g.writeNumberProperty("total", page.total());
            }
            g.writeEndObject();
        }
    }

    @PostMapping(path = "/stream", consumes = MediaType.APPLICATION_JSON_VALUE, produces = NDJSON)
    @Operation(
            operationId = "queryStream",
            summary = "Run a query, every row as a line of JSON",
            description = "The body is the query builder's JSON form, as for POST /api/v1/query. Each row is one line"
                    + " (application/x-ndjson), read from a database cursor and written as it comes, so a result of any"
                    + " size streams in bounded memory; the query's own limit and offset apply. A query that fails"
                    + " after rows were sent (the database refusing a value part way) ends with one line that is"
                    + " the problem (RFC 9457: its \"type\" is a string, where every row's members are objects)."
                    + " Example: `curl -N -X POST --data @query.json -H 'Content-Type: application/json'"
                    + " …/api/v1/query/stream`.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = @Content(examples = @ExampleObject(value = EXAMPLE))))
    @ApiResponse(
            responseCode = "200",
            description = "One JSON object per line, one line per row",
            content =
                    @Content(
                            mediaType = NDJSON,
                            schema = @Schema(type = "string", example = "{\"s\": {\"uuid\": \"0190c1a2-…\"}}\n")))
    void stream(@RequestBody String body, @Parameter(hidden = true) HttpServletResponse response) throws IOException {
        QuerySpec spec = QuerySpec.fromJson(body);
        send(spec, new JsonLines(new RowJson(spec)), NDJSON, response, queries.streamForJson(spec));
    }

    @PostMapping(
            path = "/columns",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = {NDJSON, ColumnBlocks.RAW_STRINGS})
    @Operation(
            operationId = "queryColumns",
            summary = "Run a query, every row, as blocks of columns",
            description = "The body is the query builder's JSON form, as for POST /api/v1/query. The answer is made for"
                    + " readers that build a table (a DataFrame): its first line names the columns,"
                    + " `{\"columns\": [{\"tag\": \"d\", \"key\": \"attributes.energy\"}, …]}`, and each line after it"
                    + " is a block of up to " + ColumnBlocks.BLOCK + " rows (fewer where their values pass "
                    + ColumnBlocks.BLOCK_BYTES + " bytes), an array holding one array of values per"
                    + " column in the header's order. A whole row (`*`) is a column of objects. Read from a database"
                    + " cursor and written as it comes, as the stream of rows is; a query that fails after the header"
                    + " was sent ends with one line that is the problem (RFC 9457, an object with a \"type\")."
                    + " Asked for with `Accept: " + ColumnBlocks.RAW_STRINGS + "`, a block's column of strings (and"
                    + " nulls) is `{\"utf8\": [length, null, …]}` instead of an array, each string's length in bytes,"
                    + " and those strings' UTF-8 bytes follow the block's line, column after column, unescaped and"
                    + " unseparated: see the reference's query page.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = @Content(examples = @ExampleObject(value = EXAMPLE))))
    @ApiResponse(
            responseCode = "200",
            description = "A line naming the columns, then a line per block of rows",
            content = {
                @Content(
                        mediaType = NDJSON,
                        schema =
                                @Schema(
                                        type = "string",
                                        example = "{\"columns\": [{\"tag\": \"s\", \"key\": \"uuid\"}]}\n"
                                                + "[[\"0190c1a2-…\", \"0190c1a3-…\"]]\n")),
                @Content(
                        mediaType = ColumnBlocks.RAW_STRINGS,
                        schema =
                                @Schema(
                                        type = "string",
                                        format = "binary",
                                        example = "{\"columns\": [{\"tag\": \"s\", \"key\": \"label\"}]}\n"
                                                + "[{\"utf8\": [2, null, 3]}]\nabxyz"))
            })
    void columns(
            @RequestBody String body,
            @Parameter(hidden = true) @RequestHeader(name = "Accept", required = false) String accept,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        QuerySpec spec = QuerySpec.fromJson(body);
        boolean raw = asksFor(accept, ColumnBlocks.RAW_STRINGS);
        String type = raw ? ColumnBlocks.RAW_STRINGS : NDJSON;
        send(spec, new ColumnBlocks(spec, raw), type, response, queries.streamForJson(spec));
    }

    /** Whether {@code accept} names {@code type} itself (not through a wildcard) and accepts it. */
    private static boolean asksFor(String accept, String type) {
        if (accept == null) {
            return false;
        }
        MediaType wanted = MediaType.parseMediaType(type);
        return MediaType.parseMediaTypes(accept).stream()
                .anyMatch(m -> m.equalsTypeAndSubtype(wanted) && m.getQualityValue() > 0);
    }

    /** Every row of the query through {@code lines}; a failure after the status was sent ends the stream as a line. */
    private static void send(
            QuerySpec spec, RowLines lines, String type, HttpServletResponse response, Stream<Row> opened)
            throws IOException {
        // the cursor is opened before anything is written: a query the database refuses is still a problem
        try (Stream<Row> rows = opened) {
            response.setContentType(type);
            response.setBufferSize(STREAM_BUFFER);
            JsonGenerator g = RowJson.MAPPER.createGenerator(response.getOutputStream());
            long read = 0;
            try {
                lines.begin(g);
                for (var it = rows.iterator(); it.hasNext(); read++) {
                    lines.row(g, it.next());
                }
                lines.end(g);
            } catch (CairnException e) {
                if (!response.isCommitted()) {
                    response.reset();
                    throw e;
                }
                // the status is sent: the stream ends with the problem, where a row would come
                LOG.warn("a query stream failed after {} rows: {}", read, e.getMessage());
                Problems kind = Problems.of(e);
                g.writeStartObject();
                g.writeStringProperty("type", kind.type().toString());
                g.writeStringProperty("title", kind.title());
                g.writeNumberProperty("status", kind.status().value());
                g.writeStringProperty("detail", "the query failed after " + read + " rows: " + e.getMessage());
                g.writeEndObject();
                g.writeRaw('\n');
            }
            g.close();
        }
    }

    /** A line of JSON per row, flushed every {@value #FLUSH_EVERY} rows. */
    private static final class JsonLines implements RowLines {
        private final RowJson json;
        private long written;

        JsonLines(RowJson json) {
            this.json = json;
        }

        @Override
        public void begin(JsonGenerator g) {}

        @Override
        public void row(JsonGenerator g, Row row) {
            json.write(g, row);
            g.writeRaw('\n');
            if (++written % FLUSH_EVERY == 0) {
                g.flush();
            }
        }

        @Override
        public void end(JsonGenerator g) {}
    }
}
