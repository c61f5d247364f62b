package dev.cairn.api.pages.processes;

import java.util.Arrays;
import java.util.List;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import dev.cairn.api.processes.ControlReport;
import dev.cairn.api.processes.ControlResult;
import dev.cairn.api.processes.ProcessControlService;
import dev.cairn.api.processes.ProcessFilter;
import dev.cairn.api.processes.ProcessSummary;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.engine.process.ProcessState;

/**
 * The process list: filtered by what its URL says, paged by keyset, its states kept live by the page's
 * event stream; and the bulk pause, play and kill of the rows selected (a POST, which needs the role
 * submit and the session's CSRF token, as every POST of the pages does).
 */
@Controller
class ProcessListController {

    /** The processes a page lists (Argo's users asked for small pages: 500 was too many). */
    static final int PAGE = 50;

    /** The most processes one bulk control acts on: a page's worth and more. */
    static final int BULK_LIMIT = 200;

    private final ListPaging paging;
    private final ProcessControlService controls;

    ProcessListController(ListPaging paging, ProcessControlService controls) {
        this.paging = paging;
        this.controls = controls;
    }

    @GetMapping("/ui/processes")
    String list(
            @RequestParam(name = "state", required = false) List<String> state,
            @RequestParam(name = "type", required = false) String type,
            @RequestParam(name = "kind", required = false) List<String> kind,
            @RequestParam(name = "label", required = false) String label,
            @RequestParam(name = "exit_status", required = false) String exitStatus,
            @RequestParam(name = "failed", defaultValue = "false") boolean failed,
            @RequestParam(name = "paused", defaultValue = "false") boolean paused,
            @RequestParam(name = "group", required = false) String group,
            @RequestParam(name = "since", required = false) String since,
            @RequestParam(name = "until", required = false) String until,
            @RequestParam(name = "after", required = false) String after,
            @RequestParam(name = "before", required = false) String before,
            @RequestHeader(name = "HX-Request", required = false) String htmx,
            @RequestHeader(name = "HX-History-Restore-Request", required = false) String restore,
            Model model) {
        ListFilters filters =
                new ListFilters(state, type, kind, label, exitStatus, failed, paused, group, since, until);
        ProcessFilter filter = filters.filter();
        model.addAttribute("filters", filters);
        model.addAttribute(
                "states",
                Arrays.stream(ProcessState.values()).map(ProcessState::dbValue).toList());
        model.addAttribute("kinds", ProcessSummary.kinds());
        ListPaging.Rows rows = paging.page(filter, after, before, PAGE);
        model.addAttribute("rows", rows);
        model.addAttribute("previousUrl", rows.previous() == null ? null : filters.url("before", rows.previous()));
        model.addAttribute("nextUrl", rows.next() == null ? null : filters.url("after", rows.next()));
        model.addAttribute("query", filters.query());
        // a next or previous page asked for by the pager replaces the list alone; going back through the
        // history asks for the whole page
        return htmx != null && restore == null ? "pages/processes :: list" : "pages/processes";
    }

    @PostMapping("/ui/processes/control")
    String control(
            @RequestParam(name = "action") String action,
            @RequestParam(name = "process", required = false) List<String> selected,
            @RequestParam(name = "back", defaultValue = "") String back,
            RedirectAttributes flash) {
        ProcessControlService.Action what = PostedControls.action(action);
        if (selected == null || selected.isEmpty()) {
            flash.addFlashAttribute("controlProblem", "Select the processes to " + action + " first.");
        } else {
            ProcessFilter chosen =
                    new ProcessFilter(selected, null, null, null, null, null, null, null, null, null, null, null, null);
            ControlReport report = controls.many(what, chosen, false, BULK_LIMIT, CurrentUser.id());
            flash.addFlashAttribute("controlReport", summary(what, report));
        }
        return "redirect:/ui/processes" + (back.startsWith("?") ? back : "");
    }

    /** What the control did, as a sentence: "Killed 2 processes; refused 1: 0190c1a2-… it is finished." */
    static String summary(ProcessControlService.Action action, ControlReport report) {
        List<ControlResult> refused = report.results().stream()
                .filter(r -> "refused".equals(r.outcome()))
                .toList();
        StringBuilder text = new StringBuilder(PostedControls.done(action))
                .append(' ')
                .append(report.matched())
                .append(report.matched() == 1 ? " process" : " processes");
        if (!refused.isEmpty()) {
            text.append("; refused ").append(refused.size()).append(": ");
            text.append(String.join(
                    "; ",
                    refused.stream().map(r -> r.process() + " " + r.detail()).toList()));
        }
        return text.append('.').toString();
    }
}
