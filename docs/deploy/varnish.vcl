# Varnish in front of Linen & Loft (docs/deploy.md, "A CDN or Varnish in front"; docs/decisions/0037).
# It keeps only what the shop marks `Cache-Control: public` (anonymous storefront pages and their
# .data requests) for the shop's s-maxage, serves them stale while it refetches, and bans by
# surrogate key when the shop's purge job sends `BAN /` with the changed tags in X-Purge-Tags
# (CDN_PURGE=varnish, VARNISH_PURGE_URLS=http://<this varnish>:6081).
vcl 4.1;

import std;

backend shop {
  .host = "127.0.0.1";
  .port = "3000";
}

# Who may purge: the app servers. Add their addresses.
acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "BAN") {
    if (client.ip !~ purgers) {
      return (synth(405, "Not allowed."));
    }
    # The shop's tags are lower-case words, ':' and '-' (product:<uuid>, post:<slug>): safe in a regex.
    if (!req.http.X-Purge-Tags || req.http.X-Purge-Tags !~ "^[a-z0-9:\- ]+$") {
      return (synth(400, "No tags."));
    }
    # Only obj.* in the expression: the ban lurker clears matching objects in the background.
    ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(req.http.X-Purge-Tags, " +", "|") + ")(\s|$)");
    return (synth(200, "Banned."));
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # A session (or any cookie) gets its own page from the shop: the public copy shows 'Sign in'.
  if (req.http.Cookie || req.http.Authorization) {
    return (pass);
  }
  return (hash);
}

sub vcl_backend_response {
  # Everything the shop did not mark public is never stored (private, no-store, no header at all).
  if (beresp.http.Cache-Control !~ "(^|[ ,])public([ ,]|$)" || beresp.http.Set-Cookie) {
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
  # The TTL comes from s-maxage; the stale-while-revalidate in Surrogate-Control (a header only
  # caches read: browsers must not serve old pages themselves) becomes the grace (serve stale, refetch).
  if (beresp.http.Surrogate-Control ~ "stale-while-revalidate=[0-9]+") {
    set beresp.grace = std.duration(regsub(beresp.http.Surrogate-Control, ".*stale-while-revalidate=([0-9]+).*", "\1") + "s", 10s);
  }
  return (deliver);
}

sub vcl_deliver {
  # For caches only.
  unset resp.http.Surrogate-Control;
  unset resp.http.CDN-Cache-Control;
}
