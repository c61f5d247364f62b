package dev.cairn.api.pages.query;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.query.QueryColumn;
import dev.cairn.api.query.QueryService;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * The query page: a query built in the form or pasted as JSON, kept in the URL ({@code ?q=}) so that a
 * result can be bookmarked and shared, its rows a page at a time, and all of them as CSV.
 */
@Controller
class QueryPageController {

    static final int PAGE = 100;
    static final String EXAMPLE =
            "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"node_type\": \"data.core.int.Int.\","
                    + " \"project\": [\"uuid\", \"label\", \"attributes.value\"]}],"
                    + " \"order_by\": [{\"tag\": \"n\", \"field\": \"ctime\", \"order\": \"desc\"}]}";

    private final QueryService queries;
    private final JsonMapper json;

    QueryPageController(QueryService queries, JsonMapper json) {
        this.queries = queries;
        this.json = json;
    }

    @GetMapping("/ui/query")
    String page(
            @RequestParam(name = "q", required = false) String q,
            @RequestParam(name = "cursor", required = false) String cursor,
            Model model,
            HttpServletResponse response) {
        boolean asked = q != null && !q.isBlank();
        model.addAttribute("q", asked ? q : EXAMPLE);
        model.addAttribute("entities", QueryForm.ENTITIES);
        model.addAttribute("operators", QueryForm.OPERATORS);
        model.addAttribute("shownByDefault", QueryForm.SHOWN_BY_DEFAULT);
        if (asked) {
            try {
                QuerySpec spec = QuerySpec.fromJson(q);
                model.addAttribute("table", QueryTable.of(spec, queries.page(spec, PAGE, cursor, cursor == null)));
            } catch (CairnException e) {
                // shown beside the query as it was written, which stays in the box to be mended
                response.setStatus(Problems.of(e).status().value());
                model.addAttribute("error", e.getMessage());
            }
        }
        return "pages/query";
    }

    /** The form's query, as JSON in the page's URL. */
    @GetMapping("/ui/query/build")
    String build(@ModelAttribute QueryForm form) {
        return "redirect:/ui/query?q=" + URLEncoder.encode(form.json(json), StandardCharsets.UTF_8);
    }

    /** Every row of the query as CSV, streamed from a database cursor as it is read. */
    @GetMapping("/ui/query.csv")
    void csv(@RequestParam(name = "q") String q, HttpServletResponse response) throws IOException {
        QuerySpec spec = QuerySpec.fromJson(q);
        List<QueryColumn> columns = QueryColumn.of(spec);
        try (Stream<Row> rows = queries.stream(spec)) {
            Iterator<Row> it = rows.iterator();
            it.hasNext(); // a query the database refuses fails here, while its problem can still be the answer
            response.setContentType("text/csv;charset=UTF-8");
            response.setHeader("Content-Disposition", "attachment; filename=\"query.csv\"");
            Writer out = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
            CsvRows csv = new CsvRows(out, columns);
            csv.headings();
            while (it.hasNext()) {
                csv.row(it.next());
            }
            out.flush();
        }
    }
}
