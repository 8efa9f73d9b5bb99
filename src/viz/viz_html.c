/* viz_html.c - the page of a run (DIR/index.html, viz.h): every recorded
 * launch's pictures (the PNGs inlined as data: URLs), its notes, and each
 * program's accesses as data, with a little script to step through the
 * programs (buttons, a number box, the keyboard, and #launch=N&program=P
 * in the address).  Inline CSS, JS and data only: no network. */
#define _POSIX_C_SOURCE 200809L
#include "viz_impl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* s as a JSON string that is also safe inside <script>. */
static void viz_json_str(strbuf *o, const char *s)
{
    strbuf_putc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            strbuf_printf(o, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            strbuf_printf(o, "\\u%04x", c);
        else
            strbuf_putc(o, (char)c);
    }
    strbuf_putc(o, '"');
}

/* The notes (one a line) as a JSON array. */
static void viz_json_lines(strbuf *o, const char *s)
{
    strbuf_putc(o, '[');
    bool first = true;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), s);
        if (!first)
            strbuf_putc(o, ',');
        first = false;
        viz_json_str(o, line);
        s += n + (nl != NULL);
    }
    strbuf_putc(o, ']');
}

/* Launch l's programs: {"P": [[tensor, kind, start, length, ...], ...]}
 * with runs of consecutive cells. */
static void viz_json_progs(strbuf *o, const viz_launch *l)
{
    strbuf_putc(o, '{');
    for (int64_t i = 0; i < l->nentries;) {
        int32_t p = l->entries[i].prog;
        strbuf_printf(o, "%s\"%d\":[", i ? "," : "", p);
        bool firstgroup = true;
        while (i < l->nentries && l->entries[i].prog == p) {
            int t = l->entries[i].t, kind = l->entries[i].kind;
            strbuf_printf(o, "%s[%d,%d", firstgroup ? "" : ",", t, kind);
            firstgroup = false;
            while (i < l->nentries && l->entries[i].prog == p && l->entries[i].t == t &&
                   l->entries[i].kind == kind) {
                int64_t start = l->entries[i].cell, len = 1;
                i++;
                while (i < l->nentries && l->entries[i].prog == p && l->entries[i].t == t &&
                       l->entries[i].kind == kind && l->entries[i].cell == start + len) {
                    len++;
                    i++;
                }
                strbuf_printf(o, ",%lld,%lld", (long long)start, (long long)len);
            }
            strbuf_putc(o, ']');
        }
        strbuf_putc(o, ']');
    }
    strbuf_putc(o, '}');
}

static void viz_json(strbuf *o, const viz *v)
{
    strbuf_puts(o, "{\"program\":");
    viz_json_str(o, v->program);
    strbuf notes = {0};
    if (v->skipped)
        strbuf_printf(&notes, "Only the first %d launches of the run are recorded; %lld more "
                      "were not.\n", VIZ_MAX_LAUNCHES, (long long)v->skipped);
    strbuf_puts(o, ",\"notes\":");
    viz_json_lines(o, strbuf_cstr(&notes));
    strbuf_free(&notes);
    strbuf_puts(o, ",\"launches\":[");
    for (int i = 0; i < v->nlaunches; i++) {
        const viz_launch *l = &v->launches[i];
        strbuf_printf(o, "%s{\"kernel\":", i ? "," : "");
        viz_json_str(o, l->kernel);
        strbuf_printf(o, ",\"grid\":[%lld,%lld,%lld],\"nprog\":%lld,\"ok\":%s,\"notes\":",
                      (long long)l->grid[0], (long long)l->grid[1], (long long)l->grid[2],
                      (long long)l->nprog, l->ok ? "true" : "false");
        viz_json_lines(o, strbuf_cstr(&l->notes));
        strbuf_puts(o, ",\"tensors\":[");
        for (int j = 0; j < l->ntensors; j++) {
            const viz_tensor *t = &l->t[j];
            strbuf_printf(o, "%s{\"name\":", j ? "," : "");
            viz_json_str(o, t->name);
            strbuf_puts(o, ",\"desc\":");
            viz_json_str(o, t->desc);
            strbuf_puts(o, ",\"file\":");
            viz_json_str(o, t->file);
            strbuf_printf(o, ",\"cols\":%lld,\"rows\":%lld,\"top\":%lld,\"bottom\":%lld,"
                          "\"cw\":%d,\"ch\":%d,\"strip\":%s,\"w\":%lld,\"fr\":%lld,"
                          "\"fc\":%lld,\"png\":\"", (long long)t->cols,
                          (long long)t->rows, (long long)t->top, (long long)t->bottom, t->cw,
                          t->ch, t->strip ? "true" : "false", (long long)t->w,
                          (long long)t->fr, (long long)t->fc);
            strbuf_putn(o, t->png.len ? strbuf_cstr(&t->png) : "", t->png.len);
            strbuf_puts(o, "\"}");
        }
        strbuf_puts(o, "],\"progs\":");
        viz_json_progs(o, l);
        strbuf_putc(o, '}');
    }
    strbuf_puts(o, "]}");
}

static const char viz_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>tritsim --viz</title>\n<style>\n"
    "body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
    "h1{font-size:1.3em}h2{font-size:1.1em;margin:.2em 0}\n"
    "#controls{position:sticky;top:0;background:#f4f4f4;padding:.5em;border:1px solid #ccc;"
    "z-index:2}\n"
    "#controls button{font-size:1em;margin:0 .2em}\n#prog{width:6em}\n"
    "#status{font-weight:bold;margin:.5em 0}\n"
    ".hint{color:#666;font-size:.9em;margin-left:1em}\n"
    ".tensor{display:inline-block;vertical-align:top;margin:0 2em 1.5em 0}\n"
    ".pic{position:relative;display:inline-block;border:1px solid #999}\n"
    ".pic img,.pic canvas{display:block;image-rendering:pixelated}\n"
    ".pic canvas{position:absolute;left:0;top:0}\n"
    ".desc{color:#555;font-size:.9em;margin:.2em 0 .4em}\n"
    ".notes li{color:#8a4b00}\n"
    "#legend{margin-top:1em;font-size:.9em}\n#legend td{padding:2px 8px}\n"
    ".sw{display:inline-block;width:28px;height:16px;border:1px solid #999;"
    "vertical-align:middle}\n"
    "</style>\n</head>\n<body>\n";

static const char viz_body[] =
    "<div id=\"controls\">\n"
    "<label>Launch <select id=\"launch\"></select></label>\n"
    "<button id=\"first\" title=\"first program (Home)\">&laquo; first</button>"
    "<button id=\"prev\" title=\"previous program (left arrow)\">&#x25C0; previous</button>\n"
    "<label>program <input id=\"prog\" type=\"number\" min=\"0\" value=\"0\"></label>\n"
    "<button id=\"next\" title=\"next program (right arrow)\">next &#x25B6;</button>"
    "<button id=\"last\" title=\"last program (End)\">last &raquo;</button>\n"
    "<span class=\"hint\">keys: &larr; &rarr; step through programs, Home / End, "
    "&uarr; &darr; change launch</span>\n"
    "<div id=\"status\"></div>\n<ul id=\"summary\"></ul>\n</div>\n"
    "<ul class=\"notes\" id=\"notes\"></ul>\n"
    "<div id=\"tensors\"></div>\n"
    "<div id=\"legend\"><h2>How to read the pictures</h2>\n<table>\n"
    "<tr><td><span class=\"sw\" style=\"background:#fff\"></span></td>"
    "<td>an element nobody touched</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"background:#7bd88f\"></span></td>"
    "<td>solid colour: stored (or atomically updated) by the program whose number is "
    "written in it; each program has its own colour</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"background:#bdebc7\"></span></td>"
    "<td>pale colour: only loaded, by that program</td></tr>\n"
    "<tr><td>7+</td><td>several programs did; the number is the lowest one</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"background:repeating-linear-gradient(45deg,#8c8c8c 0 "
    "1px,#fff 1px 4px)\"></span></td><td>only masked-off lanes pointed here: nothing was "
    "read or written</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"background:#e53935\"></span></td>"
    "<td>an active lane outside the tensor: an out-of-bounds access (the launch stops "
    "there)</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"background:#d0d0d0\"></span></td>"
    "<td>grey rows: memory before or after the tensor (a black line marks its edge)</td></tr>\n"
    "<tr><td><span class=\"sw\" style=\"border:3px solid #000\"></span> "
    "<span class=\"sw\" style=\"border:3px solid #1565c0\"></span></td>"
    "<td>the chosen program's accesses: black frame, stored; blue frame, loaded; dashed, "
    "masked-off lanes; red frame, out of bounds</td></tr>\n"
    "</table>\n<p>Programs are numbered row-major over the grid, as the lecture numbers "
    "blocks: (pid0 &times; G1 + pid1) &times; G2 + pid2. A 1-d tensor is drawn as a strip "
    "wrapped into rows of up to 64 elements, a 2-d one in its shape, a larger one as its "
    "2-d slices one below the other. Limits: the first 32 launches of a run are recorded; "
    "their tensors are drawn in full up to 8388608 elements in all per launch; the page "
    "steps through the programs of a launch of up to 4194304 lane accesses (and 400000 "
    "cells touched in all); pictures have at most 256 cells across and down (a cell of a "
    "larger tensor stands for a block of elements) and 64 rows outside a tensor; the notes "
    "say when a limit was reached.</p>\n</div>\n";

static const char viz_script[] =
    "var L=0,P=0,canv=[];\n"
    "function $(i){return document.getElementById(i);}\n"
    "function launch(){return VIZ.launches[L];}\n"
    "function coords(l,p){var g=l.grid;return [Math.floor(p/(g[1]*g[2])),"
    "Math.floor(p/g[2])%g[1],p%g[2]];}\n"
    "function place(t,q){var r=Math.floor(q/t.cols)-t.top,c=q%t.cols;\n"
    " if(t.strip&&t.fr==1&&t.fc==1)return String(r*t.w+c);\n"
    " return '('+r+', '+c+')';}\n"
    "function list(a){return a.slice(0,12).join(' ')+(a.length>12?' ...':'');}\n"
    "function build(){\n"
    " var l=launch(),box=$('tensors');box.innerHTML='';canv=[];\n"
    " var notes=$('notes');notes.innerHTML='';\n"
    " VIZ.notes.concat(l.notes).forEach(function(n){var li=document.createElement('li');"
    "li.textContent=n;notes.appendChild(li);});\n"
    " l.tensors.forEach(function(t){\n"
    "  var d=document.createElement('div');d.className='tensor';\n"
    "  var h=document.createElement('h2');h.textContent=t.name;d.appendChild(h);\n"
    "  var p=document.createElement('div');p.className='desc';"
    "p.textContent=t.desc+(t.file?' \\u2014 '+t.file:'');d.appendChild(p);\n"
    "  var pic=document.createElement('div');pic.className='pic';\n"
    "  var img=document.createElement('img');img.src='data:image/png;base64,'+t.png;"
    "img.alt=t.name;\n"
    "  var c=document.createElement('canvas');c.width=t.cols*t.cw;"
    "c.height=(t.top+t.rows+t.bottom)*t.ch;\n"
    "  var sc=Math.max(1,Math.min(3,Math.floor(480/c.width),Math.floor(600/c.height)));\n"
    "  img.style.width=c.style.width=c.width*sc+'px';"
    "img.style.height=c.style.height=c.height*sc+'px';\n"
    "  pic.appendChild(img);pic.appendChild(c);d.appendChild(pic);box.appendChild(d);"
    "canv.push(c);\n"
    " });\n"
    " $('prog').max=l.nprog-1;\n"
    "}\n"
    "function show(p){\n"
    " var l=launch();p=Math.max(0,Math.min(l.nprog-1,p|0));P=p;$('prog').value=p;\n"
    " var c=coords(l,p),ent=l.progs[p]||[];\n"
    " var st=$('status');st.dataset.launch=L+1;st.dataset.program=p;\n"
    " st.textContent='Launch '+(L+1)+' ('+l.kernel+', grid ('+l.grid.join(', ')+')'+"
    "(l.ok?'':', failed')+'): program '+p+' of '+l.nprog+', pid ('+c.join(', ')+')';\n"
    " var count=l.tensors.map(function(){return [0,0,0,0];}),"
    "where=l.tensors.map(function(){return [[],[],[],[]];});\n"
    " canv.forEach(function(cv,i){var t=l.tensors[i],x=cv.getContext('2d');"
    "x.clearRect(0,0,cv.width,cv.height);x.fillStyle='rgba(255,255,255,0.6)';"
    "x.fillRect(0,0,cv.width,cv.height);});\n"
    " var pass=[1,0];\n"
    " pass.forEach(function(clear){ent.forEach(function(e){\n"
    "  var t=l.tensors[e[0]],x=canv[e[0]].getContext('2d'),k=e[1];\n"
    "  for(var j=2;j<e.length;j+=2)for(var q=e[j];q<e[j]+e[j+1];q++){\n"
    "   var cx=(q%t.cols)*t.cw,cy=Math.floor(q/t.cols)*t.ch;\n"
    "   if(clear){x.clearRect(cx,cy,t.cw,t.ch);"
    "var w=k&4?2:k&8?3:k&2?1:0;count[e[0]][w]++;where[e[0]][w].push(place(t,q));continue;}\n"
    "   x.setLineDash(k&4?[3,3]:[]);x.lineWidth=k&4?1:Math.max(1,Math.min(3,t.cw/6));\n"
    "   x.strokeStyle=k&8?'#b71c1c':k&4?'#555':k&2?'#000':'#1565c0';\n"
    "   var m=x.lineWidth/2;x.strokeRect(cx+m,cy+m,t.cw-2*m,t.ch-2*m);\n"
    "  }});});\n"
    " var s=$('summary');s.innerHTML='';\n"
    " l.tensors.forEach(function(t,i){var n=count[i],li=document.createElement('li');"
    "li.dataset.tensor=t.name;\n"
    "  var part=function(what,j){return what+' '+(n[j]?n[j]+' cell'+(n[j]==1?'':'s')+': '+"
    "list(where[i][j]):'nothing');};\n"
    "  var parts=[part('loaded',0),part('stored',1)];\n"
    "  if(n[2])parts.push(part('masked-off lanes at',2));"
    "if(n[3])parts.push(part('OUT OF BOUNDS at',3));\n"
    "  li.textContent=t.name+': '+parts.join('; ');s.appendChild(li);});\n"
    " try{history.replaceState(null,'','#launch='+(L+1)+'&program='+p);}catch(e){}\n"
    "}\n"
    "function pick(l,p){L=Math.max(0,Math.min(VIZ.launches.length-1,l));$('launch').value=L;"
    "build();show(p);}\n"
    "function init(){\n"
    " var sel=$('launch');\n"
    " VIZ.launches.forEach(function(l,i){var o=document.createElement('option');o.value=i;"
    "o.textContent=(i+1)+': '+l.kernel+' ('+l.grid.join(', ')+')';sel.appendChild(o);});\n"
    " if(!VIZ.launches.length){$('status').textContent='No launch was recorded.';return;}\n"
    " sel.onchange=function(){pick(+sel.value,0);};\n"
    " $('first').onclick=function(){show(0);};$('last').onclick=function(){"
    "show(launch().nprog-1);};\n"
    " $('prev').onclick=function(){show(P-1);};$('next').onclick=function(){show(P+1);};\n"
    " $('prog').onchange=function(){show(+$('prog').value);};\n"
    " document.addEventListener('keydown',function(e){\n"
    "  if(e.target&&(e.target.tagName==='INPUT'||e.target.tagName==='SELECT'))return;\n"
    "  var k=e.key;\n"
    "  if(k==='ArrowRight'||k==='n'){show(P+1);}else if(k==='ArrowLeft'||k==='p'){show(P-1);}\n"
    "  else if(k==='Home'){show(0);}else if(k==='End'){show(launch().nprog-1);}\n"
    "  else if(k==='ArrowDown'){pick(L+1,0);}else if(k==='ArrowUp'){pick(L-1,0);}\n"
    "  else return;\n"
    "  e.preventDefault();});\n"
    " var m=/launch=(\\d+)/.exec(location.hash),q=/program=(\\d+)/.exec(location.hash);\n"
    " pick(m?m[1]-1:0,q?+q[1]:0);\n"
    "}\n"
    "init();\n";

bool viz_html_write(const viz *v)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", v->dir);
    FILE *o = fopen(path, "w");
    if (!o) {
        fprintf(stderr, "tritsim: --viz: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    strbuf data = {0}, title = {0};
    viz_json(&data, v);
    for (const char *s = v->program; *s; s++) {
        if (*s == '<')
            strbuf_puts(&title, "&lt;");
        else if (*s == '&')
            strbuf_puts(&title, "&amp;");
        else
            strbuf_putc(&title, *s);
    }
    fputs(viz_head, o);
    fprintf(o, "<h1>Pictures of a launch: %s</h1>\n", strbuf_cstr(&title));
    fputs(viz_body, o);
    fprintf(o, "<script>\nvar VIZ=%s;\n%s</script>\n</body>\n</html>\n", strbuf_cstr(&data),
            viz_script);
    strbuf_free(&data);
    strbuf_free(&title);
    bool ok = !ferror(o);
    ok &= fclose(o) == 0;
    if (!ok)
        fprintf(stderr, "tritsim: --viz: cannot write '%s'\n", path);
    return ok;
}
