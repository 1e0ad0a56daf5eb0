// Subgroup arithmetic and ballots (Vulkan 1.1), combined with ordinary per-lane work.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i] & 0xFFFFu;
    uint total = subgroupAdd(v);
    uint biggest = subgroupMax(v);
    uvec4 ballot = subgroupBallot((v & 1u) != 0u);
    uint odd = subgroupBallotBitCount(ballot);
    uint before = subgroupExclusiveAdd(v & 7u);
    r[i] = uvec4(total, biggest, odd, before);
}
