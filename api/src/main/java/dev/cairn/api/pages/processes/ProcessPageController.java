package dev.cairn.api.pages.processes;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import dev.cairn.api.pages.FilePreviews;
import dev.cairn.api.processes.ControlResult;
import dev.cairn.api.processes.ProcessControlService;
import dev.cairn.api.processes.ProcessDetail;
import dev.cairn.api.processes.ProcessService;
import dev.cairn.api.processes.ReportEntry;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Page;
import dev.cairn.storage.errors.ConflictException;

/**
 * One process's page: its call tree with live states, its inputs and outputs, its report, how it
 * ended (the exception of an excepted one), the controls its state allows, and for a calculation job
 * its scheduler job and the files it sent and retrieved; and the pause, play or kill its buttons post.
 * The page's script fetches it again when an event of its call tree comes, and swaps in what changed.
 */
@Controller
class ProcessPageController {

    /** The report's lines a page shows; the next ones are a link away. */
    static final int REPORT_LINES = 500;

    /** The output of a calculation job that holds the files it retrieved. */
    static final String RETRIEVED = "retrieved";

    private final ProcessService processes;
    private final ProcessControlService controls;
    private final FilePreviews previews;

    ProcessPageController(ProcessService processes, ProcessControlService controls, FilePreviews previews) {
        this.processes = processes;
        this.controls = controls;
        this.previews = previews;
    }

    @GetMapping("/ui/processes/{ref}")
    String process(
            @PathVariable("ref") String ref,
            @RequestParam(name = "report", required = false) String reportCursor,
            Model model) {
        ProcessDetail detail = processes.show(ref);
        String uuid = detail.process().uuid().toString();
        Page<ReportEntry> report = processes.report(uuid, "REPORT", reportCursor, REPORT_LINES);
        model.addAttribute("p", detail.process());
        model.addAttribute("detail", detail);
        model.addAttribute("tree", processes.tree(uuid));
        model.addAttribute("report", report);
        model.addAttribute(
                "reportNext", report.next() == null ? null : "/ui/processes/" + uuid + "?report=" + report.next());
        if (detail.job() != null) {
            // the files a job sent are its node's own: what its submit step kept of them
            model.addAttribute("sent", previews.of(detail.process().uuid()));
            ProcessDetail.NodeRef retrieved = detail.outputs().get(RETRIEVED);
            if (retrieved != null) {
                model.addAttribute("retrieved", previews.of(retrieved.uuid()));
            }
        }
        return "pages/process";
    }

    @PostMapping("/ui/processes/{ref}/{action:pause|play|kill}")
    String control(@PathVariable("ref") String ref, @PathVariable("action") String action, RedirectAttributes flash) {
        ProcessControlService.Action what = PostedControls.action(action);
        String uuid = processes.summary(processes.id(ref)).uuid().toString();
        try {
            ControlResult done = controls.one(what, uuid, CurrentUser.id());
            int others = done.killed() == null ? 0 : done.killed().size() - 1;
            flash.addFlashAttribute(
                    "controlReport",
                    PostedControls.done(what)
                            + (others == 0
                                    ? "."
                                    : ", with its " + others + " live descendant" + (others == 1 ? "." : "s.")));
        } catch (ConflictException e) {
            flash.addFlashAttribute("controlProblem", e.getMessage());
        }
        return "redirect:/ui/processes/" + uuid;
    }
}
