//! Approval tier: stopping the agent gateway or containers, and killing the agent itself.

use super::A;
use crate::fallback::FallbackPattern;

pub(super) static PATTERNS: &[FallbackPattern] = &[
    pat!(
        "fb-hermes-gateway-stop",
        "stop/restart hermes gateway (kills running agents)",
        A,
        concat!(
            r"(?P<m>\bhermes",
            opts!(),
            r"[ \t]+gateway",
            opts!(),
            r"[ \t]+(?:stop|restart))",
            end!()
        ),
        "hermes gateway stop|restart",
        hits: &[
            "hermes gateway stop",
            "hermes gateway restart",
            "hermes --profile x gateway restart",
        ],
        misses: &["hermes gateway status", "hermes gateway run"],
    ),
    pat!(
        "fb-hermes-update",
        "hermes update (restarts gateway, kills running agents)",
        A,
        concat!(r"(?P<m>\bhermes", opts!(), r"[ \t]+update)", end!()),
        "hermes update",
        hits: &["hermes update", "hermes --verbose update && x"],
        misses: &["hermes status", "hermes updates-list"],
    ),
    pat!(
        "fb-docker-compose-down",
        "docker compose restart/stop/kill/down (container lifecycle)",
        A,
        concat!(
            r"(?P<m>\b(?:(?:docker|podman)",
            opts!(),
            r"[ \t]+compose|docker-compose|podman-compose)",
            later!(),
            r"(?:down|stop|kill|restart|rm))",
            end!()
        ),
        "docker compose / docker-compose / podman compose down|stop|kill|restart|rm",
        hits: &[
            "docker compose down",
            "docker-compose -f x.yml stop",
            "docker --context prod compose restart",
            "podman-compose kill",
            "docker compose down -v",
        ],
        misses: &[
            "docker compose up -d",
            "docker compose logs",
            "docker-compose ps",
        ],
    ),
    pat!(
        "fb-docker-stop",
        "docker restart/stop/kill (container lifecycle)",
        A,
        concat!(
            r"(?P<m>\b(?:docker|podman)",
            opts!(),
            r"[ \t]+(?:container[ \t]+)?(?:stop|kill|restart))",
            end!()
        ),
        "docker/podman [container] stop|kill|restart (global options allowed)",
        hits: &[
            "docker stop web",
            "docker container kill x",
            "podman restart db",
            "docker -H tcp://x:2375 stop y",
        ],
        misses: &["docker start web", "docker run stopwatch", "docker ps"],
    ),
    pat!(
        "fb-docker-rm-force",
        "docker restart/stop/kill (container lifecycle)",
        A,
        concat!(
            r"(?P<m>\b(?:docker|podman)",
            opts!(),
            r"[ \t]+(?:(?:container[ \t]+)?rm",
            later!(),
            r"(?:-[a-zA-Z]*f[a-zA-Z]*|--force)|system[ \t]+prune|volume[ \t]+(?:rm|prune)))",
            end!()
        ),
        "docker/podman rm -f, system prune, volume rm|prune (no closer Hermes key exists)",
        hits: &[
            "docker rm -f web",
            "docker container rm --force x",
            "docker system prune -af",
            "podman volume rm data",
        ],
        misses: &["docker rm web", "docker run --rm img", "docker volume ls"],
    ),
    pat!(
        "fb-gateway-detached",
        "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
        A,
        r"\bgateway[ \t]+run\b[^\n;]*?(?:[^&>]&(?:[^&>]|(?m:$))|\bdisown\b|\bsetsid\b)|\b(?:nohup|setsid)[ \t][^\n;&|]*?\bgateway[ \t]+run\b",
        "gateway run in the background (&, disown, nohup, setsid)",
        hits: &[
            "hermes gateway run &",
            "hermes gateway run > log 2>&1 &",
            "nohup hermes gateway run",
            "hermes gateway run & disown",
            "setsid hermes gateway run",
        ],
        misses: &[
            "hermes gateway run",
            "hermes gateway run && echo ok",
            "hermes gateway run > log 2>&1",
        ],
    ),
    pat!(
        "fb-pkill-hermes",
        "kill hermes/gateway process (self-termination)",
        A,
        r"\b(?:pkill|killall)\b[^\n;&|]*?\b(?:hermes|gateway|cli\.py)\b",
        "pkill/killall naming hermes, gateway or cli.py",
        hits: &["pkill -f hermes", "killall gateway", "pkill -9 -f cli.py"],
        misses: &["pkill node", "pkill -f hermes_test_x_y_z_"],
    ),
    pat!(
        "fb-kill-pgrep",
        "kill process via pgrep/pidof expansion (self-termination)",
        A,
        r"\bkill\b[^\n;&|]*?\$\([ \t]*(?:pgrep|pidof)\b",
        "kill $(pgrep ..) / kill $(pidof ..)",
        hits: &["kill $(pgrep -f hermes)", "kill -9 $( pidof node )"],
        misses: &["kill 123", "pgrep -f hermes"],
    ),
    pat!(
        "fb-kill-pgrep-backtick",
        "kill process via backtick pgrep/pidof expansion (self-termination)",
        A,
        r"\bkill\b[^\n;&|]*?`[ \t]*(?:pgrep|pidof)\b",
        "kill `pgrep ..` / kill `pidof ..`",
        hits: &["kill `pgrep hermes`", "kill -9 `pidof x`"],
        misses: &["kill $(pgrep x)", "echo `pgrep x`"],
    ),
    pat!(
        "fb-launchctl-hermes",
        "stop/restart hermes launchd service (kills running agents)",
        A,
        r"\blaunchctl[ \t]+(?:stop|unload|bootout|kill|remove|disable|kickstart(?:[ \t]+-\S+)*?[ \t]+-[a-zA-Z]*k)\b[^\n;&|]*?hermes",
        "launchctl stop|unload|bootout|kill|remove|disable|kickstart -k of a hermes service",
        hits: &[
            "launchctl stop ai.hermes.gateway",
            "launchctl kickstart -k gui/501/ai.hermes.gateway",
            "launchctl bootout gui/501/com.hermes.agent",
        ],
        misses: &[
            "launchctl list | grep hermes",
            "launchctl stop com.apple.x",
            "launchctl kickstart gui/501/hermes",
        ],
    ),
];
