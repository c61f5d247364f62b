package dev.cairn.api.pages;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.stats.StatisticsService;
import dev.cairn.engine.metrics.TaskQueueState;
import dev.cairn.storage.errors.UnavailableException;

/**
 * The dashboard: processes by state (live), throughput over the last hour, the workers, the queue, and the
 * last day's failures with what they said.
 */
@Controller
class DashboardController {

    static final int HOUR = 60;

    private final StatisticsService metrics;
    private final RecentFailures failures;
    private final CairnProperties properties;

    DashboardController(StatisticsService metrics, RecentFailures failures, CairnProperties properties) {
        this.metrics = metrics;
        this.failures = failures;
        this.properties = properties;
    }

    /** The server's root is the web view's: a browser pointed at the server finds the pages. */
    @GetMapping("/")
    String root() {
        return "redirect:/ui";
    }

    @GetMapping({"/ui", "/ui/"})
    String dashboard(Model model) {
        Map<String, Long> states = new LinkedHashMap<>();
        metrics.processesByState().forEach((state, n) -> states.put(state.dbValue(), n));
        model.addAttribute("states", states);
        long[] ended = metrics.endedPerMinute(HOUR);
        model.addAttribute("throughput", Throughput.of(ended));
        model.addAttribute("endedLastHour", Arrays.stream(ended).sum());
        try {
            TaskQueueState queue = metrics.taskQueue();
            model.addAttribute("queue", queue);
        } catch (UnavailableException e) {
            model.addAttribute("queueProblem", e.getMessage());
        }
        model.addAttribute(
                "localSlots",
                properties.hasRole(CairnProperties.Role.WORKER)
                        ? properties.worker().slots()
                        : 0);
        model.addAttribute("failures", failures.list());
        return "pages/dashboard";
    }
}
