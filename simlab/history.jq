# simlab/history.jq: validates a simulated kernel history (see
# schemas/history.schema.json) and prints one error per line, each naming the
# JSON path of the offending value; prints nothing when the file is valid.
def rx: "^[A-Za-z0-9._-]{1,64}$";
def isbool: type == "boolean";
def known($ids): . as $v | type == "string" and ($ids | index([$v]) != null);

if type != "object" then "(top): must be an object"
else
  . as $h
  | ((($h.revisions // []) | if type == "array" then map(.id?) else [] end)) as $ids
  | (
    ($h | keys[] | select(IN("description", "revisions", "faults",
        "unbuildable", "unbootable") | not) | "\(.): unknown key"),
    (if ($h.revisions | type) != "array" or ($h.revisions | length) == 0
     then "revisions: must be a non-empty array" else
       ($h.revisions | to_entries[] | .key as $i | .value
        | if type != "object" then "revisions[\($i)]: must be an object"
          else
            (if (.id | type) != "string" or (.id | test(rx) | not)
             then "revisions[\($i)].id: must match \(rx)" else empty end),
            (if (.message | type) != "string"
             then "revisions[\($i)].message: must be a string" else empty end),
            (keys[] | select(IN("id", "message") | not)
             | "revisions[\($i)].\(.): unknown key")
          end),
       ($ids | group_by(.)[] | select(length > 1)
        | "revisions: duplicate id \(.[0] | tostring)")
     end),
    (if ($h.faults // [] | type) != "array" then "faults: must be an array"
     else
       ($h.faults // [] | to_entries[] | .key as $i | .value
        | "faults[\($i)]" as $p
        | if type != "object" then "\($p): must be an object" else
            (keys[] | select(IN("name", "introduced", "fixed", "hosts",
                "driver", "when", "throughput_factor") | not)
             | "\($p).\(.): unknown key"),
            (if (.introduced | known($ids)) | not
             then "\($p).introduced: unknown revision \(.introduced | tojson)"
             else empty end),
            (if .fixed == null then empty
             elif (.fixed | known($ids)) | not
             then "\($p).fixed: unknown revision \(.fixed | tojson)"
             elif (.fixed as $f | $ids | index([$f])) <= (.introduced as $n | $ids | index([$n]) // -1)
             then "\($p).fixed: must come after introduced" else empty end),
            (if (has("hosts") and has("driver")) or
                ((has("hosts") or has("driver")) | not)
             then "\($p): needs exactly one of hosts, driver" else empty end),
            (if has("hosts") and ((.hosts | type) != "array" or
                (.hosts | length) == 0 or
                (.hosts | map(type == "string" and
                    test("^[a-z][a-z0-9-]{0,62}$")) | all | not))
             then "\($p).hosts: must be a non-empty array of host names"
             else empty end),
            (if has("driver") and ((.driver | type) != "string" or
                (.driver | test("^[a-z][a-z0-9_]*$") | not))
             then "\($p).driver: must be a driver name like \"em\""
             else empty end),
            (if (.when | type) != "object" or (.when | length) == 0
             then "\($p).when: must be a non-empty object" else
               (.when | to_entries[]
                | if .key == "tso" or .key == "nat" then
                    (if (.value | isbool) then empty
                     else "\($p).when.\(.key): must be true or false" end)
                  elif .key == "mtu" then
                    (if (.value | type) == "number" and .value == (.value | floor)
                        and .value >= 576 and .value <= 65535 then empty
                     else "\($p).when.mtu: must be an integer 576-65535" end)
                  else "\($p).when.\(.key): unknown knob (tso, mtu, nat)" end)
             end),
            (if (.throughput_factor | type) != "number" or
                .throughput_factor <= 0 or .throughput_factor > 10
             then "\($p).throughput_factor: must be a number in (0, 10]"
             else empty end)
          end)
     end),
    (("unbuildable", "unbootable") as $k
     | if $h | has($k) | not then empty
       elif ($h[$k] | type) != "array" then "\($k): must be an array"
       else ($h[$k] | to_entries[]
             | select(.value | known($ids) | not)
             | "\($k)[\(.key)]: unknown revision \(.value | tojson)")
       end)
  )
end
