// SPDX-License-Identifier: GPL-2.0
/*
 * leon3_tags: a GCC plugin that puts LEON3 control-flow tags into a
 * program (Documentation/tags.md, leon3_tags.h): a tag at each function's
 * entry and before each of its returns, and at each loop's entry (its
 * preheader), latch and exits.  The loops are those of GCC's own loop
 * tree after the GIMPLE optimisations (the pass runs after "optimized"),
 * so a loop the optimiser removed or unrolled whole has no tags, and one
 * it kept has them where it now is.
 *
 *   sparc-leon3-linux-gnu-gcc -fplugin=build/tags/leon3_tags.so ...
 *
 * Each tag is a basic asm statement that assembles the tag and its
 * record in the section .leon3_tags (address, line, loop depth, the
 * names of its function and file), so a tag that a later pass copies
 * has a record for each copy, and one it deletes has none.
 */

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "cfgloop.h"
#include "tree-cfg.h"
#include "diagnostic-core.h"

#include <string>

#include "leon3_tags.h"

int plugin_is_GPL_compatible;

static const char plugin_name_s[] = "leon3_tags";

/* The next id of this compilation unit: one per function and per loop */
static unsigned int next_id;

/* @s as the operand of .asciz */
static std::string asm_string(const char *s)
{
	std::string out = "\"";
	char oct[8];

	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			out += '\\';
			out += c;
		} else if (c < 0x20 || c >= 0x7f) {
			snprintf(oct, sizeof(oct), "\\%03o", c);
			out += oct;
		} else {
			out += c;
		}
	}
	return out + "\"";
}

/* The tag of @kind and @id at @loc, loop depth @depth, as a statement */
static gasm *tag_stmt(unsigned int kind, unsigned int id, location_t loc,
		      unsigned int depth)
{
	unsigned int insn = LEON3_TAG_SETHI_G0 |
			    kind << LEON3_TAG_KIND_SHIFT | id;
	expanded_location x = expand_location(loc);
	std::string text;
	char buf[256];
	gasm *stmt;

	/*
	 * final writes an asm statement's file and line before its text and
	 * needs a file: a location with no file (none, or only a scope)
	 * becomes the function's, or the built-in one's.
	 */
	if (!x.file) {
		loc = DECL_SOURCE_LOCATION(current_function_decl);
		x = expand_location(loc);
	}
	if (!x.file)
		loc = BUILTINS_LOCATION;
	snprintf(buf, sizeof(buf),
		 "1:\tsethi\t0x%x, %%g0\t! leon3 tag\n"
		 "\t.pushsection " LEON3_TAG_SECTION ",\"\",@progbits\n"
		 "\t.align\t4\n"
		 "\t.4byte\t1b, 0x%08x, %d\n"
		 "\t.2byte\t%u, 0\n"
		 "\t.4byte\t2f, 3f\n"
		 "\t.popsection\n"
		 "\t.pushsection " LEON3_TAG_STR_SECTION
		 ",\"MS\",@progbits,1\n",
		 insn & LEON3_TAG_IMM_MASK, insn, x.file ? x.line : 0, depth);
	text = buf;
	text += "2:\t.asciz\t" + asm_string(current_function_name()) + "\n";
	text += "3:\t.asciz\t" + asm_string(x.file ? x.file : "") + "\n";
	text += "\t.popsection";

	stmt = gimple_build_asm_vec(ggc_strdup(text.c_str()), NULL, NULL,
				    NULL, NULL);
	gimple_asm_set_input(stmt, true);	/* basic asm: text as is */
	gimple_asm_set_volatile(stmt, true);
	gimple_set_location(stmt, loc);
	return stmt;
}

/* The location of @bb's first statement that has one, else @fallback */
static location_t block_location(basic_block bb, location_t fallback)
{
	gimple_stmt_iterator gsi;

	for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
		location_t loc = gimple_location(gsi_stmt(gsi));

		if (LOCATION_LOCUS(loc) != UNKNOWN_LOCATION)
			return loc;
	}
	return fallback;
}

/*
 * Where @loop is in the source: the test of one of its @exits (a for or
 * while loop's condition), else its header's first statement, else
 * @fallback
 */
static location_t loop_location(class loop *loop, const vec<edge> &exits,
				location_t fallback)
{
	for (edge e : exits) {
		gimple *last = last_stmt(e->src);

		if (last && gimple_code(last) == GIMPLE_COND &&
		    LOCATION_LOCUS(gimple_location(last)) != UNKNOWN_LOCATION)
			return gimple_location(last);
	}
	return block_location(loop->header, fallback);
}

/* Edges a statement cannot be put on: abnormal ones (EH, setjmp, ...) */
static bool edge_takes_stmt(edge e)
{
	return !(e->flags & EDGE_COMPLEX);
}

static unsigned int next_tag_id(function *fun)
{
	if (next_id > LEON3_TAG_ID_MAX) {
		if (next_id++ == LEON3_TAG_ID_MAX + 1)
			warning_at(DECL_SOURCE_LOCATION(fun->decl), 0,
				   "%s: more than %u functions and loops in this unit: ids wrap",
				   plugin_name_s, LEON3_TAG_ID_MAX + 1);
		return next_id & LEON3_TAG_ID_MAX;
	}
	return next_id++;
}

static void tag_loops(function *fun)
{
	for (auto loop : loops_list(fun, 0)) {
		unsigned int id = next_tag_id(fun), depth = loop_depth(loop);
		auto_vec<edge> exits = get_loop_exit_edges(loop);
		location_t loc = loop_location(loop, exits,
					       DECL_SOURCE_LOCATION(fun->decl));
		edge pre = loop_preheader_edge(loop);

		if (pre && edge_takes_stmt(pre))
			gsi_insert_on_edge(pre, tag_stmt(LEON3_TAG_LOOP_ENTRY,
							 id, loc, depth));
		if (loop->latch && loop->latch != loop->header) {
			gimple_stmt_iterator gsi = gsi_after_labels(loop->latch);

			gsi_insert_before(&gsi, tag_stmt(LEON3_TAG_LOOP_LATCH,
							 id, loc, depth),
					  GSI_SAME_STMT);
		} else if (loop->latch) {
			/* a one-block loop: the back edge is its latch */
			edge back = find_edge(loop->latch, loop->header);

			if (back && edge_takes_stmt(back))
				gsi_insert_on_edge(back, tag_stmt(LEON3_TAG_LOOP_LATCH,
								  id, loc, depth));
		}
		for (edge e : exits) {
			if (edge_takes_stmt(e))
				gsi_insert_on_edge(e, tag_stmt(LEON3_TAG_LOOP_EXIT,
							       id, loc, depth));
		}
	}
}

static void tag_function(function *fun)
{
	unsigned int id = next_tag_id(fun);
	location_t loc = DECL_SOURCE_LOCATION(fun->decl);
	basic_block bb;

	gsi_insert_on_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)),
			   tag_stmt(LEON3_TAG_FUNC_ENTRY, id, loc, 0));
	FOR_EACH_BB_FN(bb, fun) {
		gimple_stmt_iterator gsi = gsi_last_bb(bb);

		if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN)
			continue;
		location_t ret = gimple_location(gsi_stmt(gsi));

		if (LOCATION_LOCUS(ret) == UNKNOWN_LOCATION)
			ret = loc;
		gsi_insert_before(&gsi, tag_stmt(LEON3_TAG_FUNC_EXIT, id, ret, 0),
				  GSI_SAME_STMT);
	}
}

static const pass_data tags_pass_data = {
	GIMPLE_PASS,		/* type */
	"leon3_tags",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg,		/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	TODO_update_ssa_only_virtuals,	/* todo_flags_finish */
};

class tags_pass : public gimple_opt_pass {
public:
	tags_pass(gcc::context *ctx) : gimple_opt_pass(tags_pass_data, ctx) {}

	unsigned int execute(function *fun) final override
	{
		loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
		tag_function(fun);
		tag_loops(fun);
		gsi_commit_edge_inserts();
		loop_optimizer_finalize();
		return 0;
	}
};

int plugin_init(struct plugin_name_args *info,
		struct plugin_gcc_version *version)
{
	struct register_pass_info pass;

	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%s: built for GCC %s, loaded into %s", plugin_name_s,
		      gcc_version.basever, version->basever);
		return 1;
	}
	if (info->argc) {
		error("%s: unknown argument %<-fplugin-arg-%s-%s%>",
		      plugin_name_s, info->base_name, info->argv[0].key);
		return 1;
	}
	pass.pass = new tags_pass(g);
	pass.reference_pass_name = "optimized";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
			  &pass);
	return 0;
}
